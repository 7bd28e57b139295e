(* invoice.ml -- build the monthly invoices from the usage records.
   Build: ocamlfind ocamlopt -package str invoice.ml  (plain ocamlc works too) *)

type currency = EUR | USD | GBP

type money = { cents : int; currency : currency }

type line = {
  sku : string;
  description : string;
  quantity : int;
  unit_price : money;
  discount : float; (* 0.0 .. 1.0 *)
}

type customer = { id : int; name : string; vat_rate : float; lines : line list }

let currency_code = function EUR -> "EUR" | USD -> "USD" | GBP -> "GBP"

let money_to_string m =
  Printf.sprintf "%d.%02d %s" (m.cents / 100) (abs m.cents mod 100)
    (currency_code m.currency)

let add_money a b =
  if a.currency <> b.currency then invalid_arg "add_money: currency mismatch";
  { a with cents = a.cents + b.cents }

let scale_money m f =
  { m with cents = int_of_float (Float.round (float_of_int m.cents *. f)) }

(* net amount of one line after its discount *)
let line_net l =
  let gross = scale_money l.unit_price (float_of_int l.quantity) in
  scale_money gross (1.0 -. l.discount)

let subtotal c =
  match c.lines with
  | [] -> { cents = 0; currency = EUR }
  | first :: _ ->
      List.fold_left
        (fun acc l -> add_money acc (line_net l))
        { cents = 0; currency = first.unit_price.currency }
        c.lines

(* average discount, weighted by the net amount of each line *)
let weighted_discount c =
  let total =
    List.fold_left (fun acc l -> acc +. line_net l) 0.0 c.lines
  in
  if total = 0.0 then 0.0
  else
    List.fold_left
      (fun acc l -> acc +. (l.discount *. float_of_int (line_net l).cents /. total))
      0.0 c.lines

let vat c = scale_money (subtotal c) c.vat_rate

let print_invoice c =
  Printf.printf "Invoice for %s (#%d)\n" c.name c.id;
  List.iter
    (fun l ->
      Printf.printf "  %-8s %-24s x%-3d %s\n" l.sku l.description l.quantity
        (money_to_string (line_net l)))
    c.lines;
  let sub = subtotal c in
  Printf.printf "  subtotal %s, VAT %s, total %s (avg. discount %.1f%%)\n"
    (money_to_string sub) (money_to_string (vat c))
    (money_to_string (add_money sub (vat c)))
    (100.0 *. weighted_discount c)

let eur cents = { cents; currency = EUR }

let customers =
  [
    { id = 1041; name = "Kessler GmbH"; vat_rate = 0.19;
      lines =
        [ { sku = "CPU-H"; description = "compute hours"; quantity = 720;
            unit_price = eur 4; discount = 0.0 };
          { sku = "STO-GB"; description = "storage, GB-month"; quantity = 250;
            unit_price = eur 2; discount = 0.1 } ] };
    { id = 1077; name = "Ortega & Hijos"; vat_rate = 0.21; lines = [] };
  ]

let () = List.iter print_invoice customers
