//! The compact rules of a desktop outline: the actions a toolkit gives every widget of a
//! kind (GTK 4's clipboard, selection and link set on each label, Qt's `SetFocus`, a
//! button's lone click) are not listed on a node that has no other, the items of a closed menu fold into its one line
//! (`menu "File" [e4] (closed, 12 items)`) unless the snapshot is scoped to them, and names
//! have their runs of whitespace collapsed.

use crate::desktop::atspi::Elem;

/// Actions a toolkit puts on every widget of a kind, which say nothing about the one node:
/// GTK 4's label and text actions, Qt's focus action.
const TOOLKIT_DEFAULTS: &[&str] = &[
    "clipboard.copy",
    "clipboard.cut",
    "clipboard.paste",
    "selection.delete",
    "selection.select-all",
    "link.open",
    "link.copy",
    "menu.popup",
    "text.undo",
    "text.redo",
    "misc.insert-emoji",
    "misc.toggle-visibility",
    "SetFocus",
];

/// The actions a line lists: none when all are the toolkit's defaults (or a button's lone
/// click, which its role says), else all of them (a node with its own actions shows every
/// name `secondary_action` takes).
pub fn listed<'a>(role: &str, actions: &'a [String]) -> &'a [String] {
    let button = matches!(role, "button" | "push button");
    let implied = |a: &String| {
        TOOLKIT_DEFAULTS.contains(&a.as_str())
            || (button
                && actions.len() == 1
                && (a.eq_ignore_ascii_case("click") || a.eq_ignore_ascii_case("press")))
    };
    if actions.iter().all(implied) {
        &[]
    } else {
        actions
    }
}

/// `name` with every run of whitespace one space, and none at either end.
pub fn collapsed(name: &str) -> String {
    name.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What a walk's elements become in a compact outline: each closed menu (a `menu` whose
/// items all lack a box) stands alone with the count of its items, which are left out.
/// Returns the elements kept and, by index into them, each folded menu's item count.
pub fn fold_closed_menus(elems: &[Elem]) -> (Vec<&Elem>, Vec<(usize, usize)>) {
    let mut kept = Vec::with_capacity(elems.len());
    let mut folded = Vec::new();
    let mut i = 0;
    while i < elems.len() {
        let e = &elems[i];
        let end = i + 1 + elems[i + 1..].iter().take_while(|c| c.depth > e.depth).count();
        let inside = &elems[i + 1..end];
        if e.role == "menu" && !inside.is_empty() && inside.iter().all(|c| c.bbox.is_none()) {
            let items = inside.iter().filter(|c| c.depth == e.depth + 1).count();
            folded.push((kept.len(), items));
            kept.push(e);
            i = end;
        } else {
            kept.push(e);
            i += 1;
        }
    }
    (kept, folded)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn elem(role: &str, depth: u16, bbox: Option<(i32, i32, i32, i32)>) -> Elem {
        Elem { role: role.into(), depth, bbox, key: format!("{role}{depth}"), ..Elem::default() }
    }

    #[test]
    fn toolkit_defaults_are_listed_only_beside_actions_of_the_node() {
        let label: Vec<String> = ["clipboard.copy", "link.open"].map(String::from).into();
        assert!(listed("label", &label).is_empty());
        let own: Vec<String> = ["clipboard.copy", "cal.solve"].map(String::from).into();
        assert_eq!(listed("group", &own), own.as_slice());
        let click: Vec<String> = vec!["Click".into()];
        assert!(listed("button", &click).is_empty());
        assert_eq!(listed("menu item", &click), click.as_slice());
        assert_eq!(collapsed("  Save\n  as\t x "), "Save as x");
    }

    #[test]
    fn a_closed_menu_is_one_line_and_an_open_one_keeps_its_items() {
        let b = Some((0, 0, 10, 10));
        let elems = [
            elem("menu bar", 0, b),
            elem("menu", 1, b),
            elem("menu item", 2, None),
            elem("menu", 2, None),
            elem("menu item", 3, None),
            elem("menu item", 2, None),
            elem("menu", 1, b),
            elem("menu item", 2, b),
            elem("text", 0, b),
        ];
        let (kept, folded) = fold_closed_menus(&elems);
        let roles: Vec<&str> = kept.iter().map(|e| e.role.as_str()).collect();
        assert_eq!(roles, ["menu bar", "menu", "menu", "menu item", "text"]);
        assert_eq!(folded, [(1, 3)]);
    }
}
