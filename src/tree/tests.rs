use super::*;
use crate::generate::decode_tree;
use crate::grammar::TermId;

fn expr() -> Grammar {
    Grammar::from_json_str(
        include_str!("../../grammars/expr.json"),
        &Default::default(),
    )
    .unwrap()
}

#[test]
fn spans_children_and_text_agree() {
    let g = expr();
    let t = decode_tree(
        &g,
        &[255, 3, 90, 200, 17, 255, 255, 0, 1],
        &Default::default(),
    );
    assert_eq!(t.find_invalid(&g), None);
    let text = t.unparse(&g);
    let spans = t.text_spans(&g);
    assert_eq!(spans[0], 0..text.len());
    let depths = t.depths();
    assert_eq!(t.depth(), *depths.iter().max().unwrap());
    assert!(t.depth() > 2);
    for id in (0..t.len() as u32).map(NodeId) {
        assert_eq!(t.depth_of(id), depths[id.index()]);
        let below = t.subtree_depths(id);
        assert_eq!(below.len(), t.node(id).size as usize);
        for (k, d) in t.subtree(id).zip(&below) {
            assert_eq!(depths[k.index()], depths[id.index()] + d);
        }
        assert_eq!(&text[spans[id.index()].clone()], &t.node_text(&g, id)[..]);
        let kids: Vec<NodeId> = t.children(id).collect();
        let size: u32 = kids.iter().map(|k| t.node(*k).size).sum();
        assert_eq!(t.node(id).size, size + 1);
        for k in kids {
            assert_eq!(t.node(k).parent, id.0);
            assert_eq!(depths[k.index()], depths[id.index()] + 1);
            assert!(t.contains(id, k) && !t.contains(k, id));
        }
    }
}

#[test]
fn only_decoded_trees_have_choice_spans() {
    let g = expr();
    let t = decode_tree(&g, &[255, 3, 90, 200, 17], &Default::default());
    assert!(t.has_choices());
    assert_eq!(t.choices(t.root()).start, 0);
    assert!(t.choices(t.root()).end > 0);
    let r = t.replace(t.root(), &t, t.root());
    assert!(!r.has_choices());
    assert_eq!(r.choices(r.root()), 0..0);
    let parsed = crate::parse::parse(&g, &t.unparse(&g)).unwrap();
    assert!(!parsed.has_choices());
}

#[test]
fn find_invalid_spots_a_wrong_child() {
    let g = expr();
    let t = decode_tree(&g, &[255, 255, 0, 4], &Default::default());
    // Swap a digit terminal for another terminal of the grammar ("(").
    let open = g.terms().iter().position(|b| &b[..] == b"(").unwrap() as u32;
    let mut nodes = t.nodes().to_vec();
    let leaf = nodes
        .iter()
        .rposition(|n| matches!(n.label(), Label::Term(_)))
        .unwrap();
    nodes[leaf].set_label(Label::Term(TermId(open)));
    let bad = Tree::from_preorder(nodes, Vec::new()).unwrap();
    assert_eq!(
        bad.find_invalid(&g),
        Some(NodeId(bad.node(NodeId(leaf as u32)).parent))
    );
    let mut nodes = t.nodes().to_vec();
    nodes.truncate(1);
    let lone = Tree::from_preorder(nodes, Vec::new()).unwrap();
    assert_eq!(lone.find_invalid(&g), Some(NodeId(0)));
}

#[test]
fn replace_keeps_a_valid_tree() {
    let g = expr();
    let t = decode_tree(&g, &[255, 0, 0, 4, 7, 0, 0, 9], &Default::default());
    let expr = g.symbol_by_name("<expr>").unwrap();
    let exprs: Vec<NodeId> = (0..t.len() as u32)
        .map(NodeId)
        .filter(|&n| t.symbol(&g, n) == Some(expr))
        .collect();
    assert!(
        exprs.len() >= 2,
        "{}",
        String::from_utf8_lossy(&t.unparse(&g))
    );
    let (outer, inner) = (exprs[0], *exprs.last().unwrap());
    let r = t.replace(outer, &t, inner);
    assert_eq!(r.find_invalid(&g), None);
    assert_eq!(r.unparse(&g), t.node_text(&g, inner));
    let mut out = Vec::new();
    t.unparse_with(&g, outer, Some((&t, inner)), &mut out);
    assert_eq!(out, r.unparse(&g));
}

#[test]
fn dot_output_is_well_formed() {
    let g = Grammar::from_json_str(
        r#"{"<start>": [["<q>", "<q>"]], "<q>": [["\""], ["\\"], ["a\nb"]]}"#,
        &Default::default(),
    )
    .unwrap();
    let t = decode_tree(&g, &[0, 255], &Default::default());
    let dot = t.to_dot(&g);
    assert!(dot.starts_with("digraph tree {\n") && dot.ends_with("}\n"));
    let nodes = dot.lines().filter(|l| l.contains("[label=")).count();
    let edges = dot.lines().filter(|l| l.contains(" -> ")).count();
    assert_eq!((nodes, edges), (t.len(), t.len() - 1));
    // Labels: quotes and backslashes escaped for DOT, so every label
    // line has balanced unescaped quotes.
    for l in dot.lines().filter(|l| l.contains("[label=")) {
        let unescaped = l
            .as_bytes()
            .iter()
            .enumerate()
            .filter(|&(i, &b)| {
                b == b'"'
                    && l.as_bytes()[..i]
                        .iter()
                        .rev()
                        .take_while(|&&c| c == b'\\')
                        .count()
                        % 2
                        == 0
            })
            .count();
        assert_eq!(unescaped % 2, 0, "{l}");
    }
    assert!(dot.contains(r#"label="\"\\\"\""#), "{dot}");
    assert!(dot.contains(r#"label="\"a\\nb\"""#), "{dot}");
}
