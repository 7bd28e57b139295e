;;; invoice.scm -- print invoices for the bookshop's weekly orders.
;;; Usage: guile invoice.scm
;;; Prices come from the catalogue below; orders refer to books by ISBN.

(use-modules (srfi srfi-1)
             (ice-9 format))

(define vat-rate 0.07)
(define member-discount 0.10)

;; Catalogue: (isbn title price-in-euros stock)
(define catalogue
  '(("978-0262510875" "Structure and Interpretation" 54.00 3)
    ("978-0521545662" "Purely Functional Data"       42.50 1)
    ("978-0201633610" "Design Patterns"              "39.90" 6)
    ("978-1593272814" "Land of Lisp"                 29.95 2)
    ("978-0131103627" "The C Programming Language"   47.00 4)))

(define (book-title entry) (cadr entry))
(define (book-price entry) (caddr entry))
(define (book-stock entry) (cadddr entry))

(define (lookup-book isbn)
  (or (assoc isbn catalogue)
      (error "unknown ISBN" isbn)))

;; An order is (customer member? (isbn . quantity) ...)
(define orders
  '(("Ada Byron"      #t ("978-0262510875" . 1) ("978-1593272814" . 2))
    ("Alan Kay"       #f ("978-0131103627" . 1))
    ("Grace Hopper"   #t ("978-0521545662" . 1) ("978-0201633610" . 2))
    ("Edsger Dijkstra" #f ("978-0262510875" . 1))))

(define (order-customer o) (car o))
(define (order-member? o) (cadr o))
(define (order-lines o) (cddr o))

(define (line-total line)
  (let* ((entry (lookup-book (car line)))
         (qty (cdr line)))
    (when (> qty (book-stock entry))
      (format #t "  warning: only ~a of ~s in stock~%"
              (book-stock entry) (book-title entry)))
    (* (book-price entry) qty)))

(define (order-subtotal o)
  (fold + 0 (map line-total (order-lines o))))

(define (apply-discount o amount)
  (if (order-member? o)
      (* amount (- 1 member-discount))
      amount))

(define (round-cents x)
  (/ (round (* x 100)) 100.0))

(define (order-total o)
  (let* ((net (apply-discount o (order-subtotal o)))
         (vat (* net vat-rate)))
    (round-cents (+ net vat))))

(define (print-invoice o)
  (format #t "Invoice for ~a~%" (order-customer o))
  (for-each
   (lambda (line)
     (format #t "  ~a x ~a~%" (cdr line) (book-title (lookup-book (car line)))))
   (order-lines o))
  (format #t "  total: ~,2f EUR~%~%" (order-total o)))

(define (weekly-report)
  (for-each print-invoice orders)
  (format #t "~a invoices printed~%" (length orders)))

(weekly-report)
