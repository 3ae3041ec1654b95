//! The corpus: one small host page of ours per third-party widget, the controls a user acts
//! on there (by the words a person would look for), the task, the steps a scripted agent
//! takes through snapshot refs, and the script that reads the outcome from the widget.

/// What the agent looks for: `"label"`, or `"role|label"` to take only lines of that role
/// (an empty label then takes the first such line, named or not).
pub type Find = &'static str;

/// One step of a task, each through a ref found in a fresh snapshot.
#[derive(Clone, Copy, Debug)]
pub enum Step {
    Click(Find),
    /// Replace a field's text at once.
    Fill(Find, &'static str),
    /// Key by key into a field (for widgets that listen to keys).
    Type(Find, &'static str),
    /// A key or chord to the focused element.
    Press(&'static str),
    /// Drag the first onto the second.
    Drag(Find, Find),
}

pub struct Page {
    pub name: &'static str,
    pub widget: &'static str,
    pub html: &'static str,
    /// The controls a user acts on, each of which should be a named line with a ref.
    pub controls: &'static [Find],
    pub task: &'static str,
    pub steps: &'static [Step],
    /// A JavaScript expression read after the steps; the task is done when it gives `want`.
    pub check: &'static str,
    pub want: &'static str,
}

use Step::{Click, Drag, Fill, Press, Type};

/// The order of the items of `#list`, comma-separated.
const LIST_ORDER: &str =
    "[...document.querySelectorAll('#list li')].map(e => e.textContent.trim()).join(',')";

pub const PAGES: &[Page] = &[
    Page {
        name: "jqui-datepicker",
        widget: "jQuery UI datepicker",
        html: include_str!("pages/jqui-datepicker.html"),
        controls: &["Prev", "Next", "10", "15"],
        task: "pick 15 March 2024 (shown: February)",
        steps: &[Click("Next"), Click("15")],
        check: "$.datepicker.formatDate('yy-mm-dd', $('#dp').datepicker('getDate'))",
        want: "2024-03-15",
    },
    Page {
        name: "jqui-autocomplete",
        widget: "jQuery UI autocomplete",
        html: include_str!("pages/jqui-autocomplete.html"),
        controls: &["Fruit", "Blackberry", "Blueberry"],
        task: "type \"Bl\" and choose Blueberry",
        steps: &[Type("Fruit", "Bl"), Click("Blueberry")],
        check: "$('#fruit').val()",
        want: "Blueberry",
    },
    Page {
        name: "jqui-sortable",
        widget: "jQuery UI sortable",
        html: include_str!("pages/jqui-sortable.html"),
        controls: &["Item 1", "Item 2", "Item 3", "Item 4", "Item 5"],
        task: "drag Item 3 to the top",
        steps: &[Drag("Item 3", "Item 1")],
        check: LIST_ORDER,
        want: "Item 3,Item 1,Item 2,Item 4,Item 5",
    },
    Page {
        name: "jqui-menu",
        widget: "jQuery UI menu",
        html: include_str!("pages/jqui-menu.html"),
        controls: &["Books", "Music", "Films", "Jazz"],
        task: "choose Music > Jazz",
        steps: &[Click("Music"), Click("Jazz")],
        check: "document.getElementById('out').textContent",
        want: "Jazz",
    },
    Page {
        name: "bs-dropdown",
        widget: "Bootstrap dropdown",
        html: include_str!("pages/bs-dropdown.html"),
        controls: &["Actions", "Edit", "Archive", "Delete"],
        task: "open Actions and choose Archive",
        steps: &[Click("Actions"), Click("Archive")],
        check: "document.getElementById('out').textContent",
        want: "Archive",
    },
    Page {
        name: "bs-modal",
        widget: "Bootstrap modal",
        html: include_str!("pages/bs-modal.html"),
        controls: &["Open dialog", "Close", "Cancel", "Save changes"],
        task: "open the dialog and press Save changes",
        steps: &[Click("Open dialog"), Click("Save changes")],
        check: "document.getElementById('out').textContent",
        want: "saved",
    },
    Page {
        name: "bs-tabs",
        widget: "Bootstrap tabs",
        html: include_str!("pages/bs-tabs.html"),
        controls: &["Home", "Profile", "Contact"],
        task: "switch to the Profile tab",
        steps: &[Click("Profile")],
        check: "document.querySelector('.tab-pane.active.show').id",
        want: "profile",
    },
    Page {
        name: "tom-select",
        widget: "Tom Select",
        html: include_str!("pages/tom-select.html"),
        controls: &["Fruit", "Apple", "Banana", "Cherry"],
        task: "choose Banana",
        steps: &[Click("Fruit"), Click("Banana")],
        check: "document.getElementById('fruit').value",
        want: "banana",
    },
    Page {
        name: "flatpickr",
        widget: "flatpickr",
        html: include_str!("pages/flatpickr.html"),
        controls: &["Arrival", "flatpickr-prev-month", "flatpickr-next-month", "15"],
        task: "pick 15 March 2024 (shown: February)",
        steps: &[Click("Arrival"), Click("flatpickr-next-month"), Click("15")],
        check: "document.getElementById('when').value",
        want: "2024-03-15",
    },
    Page {
        name: "sortablejs",
        widget: "SortableJS",
        html: include_str!("pages/sortablejs.html"),
        controls: &["Item 1", "Item 2", "Item 3", "Item 4", "Item 5"],
        task: "drag Item 3 to the top",
        steps: &[Drag("Item 3", "Item 1")],
        check: LIST_ORDER,
        want: "Item 3,Item 1,Item 2,Item 4,Item 5",
    },
    Page {
        name: "quill",
        widget: "Quill",
        html: include_str!("pages/quill.html"),
        controls: &["bold", "italic", "underline", "list: ordered", "list: bullet", "link"],
        task: "type \"Hello world\", select it, make it bold",
        steps: &[
            Click("textbox|"),
            Type("textbox|", "Hello world"),
            Press("Control+a"),
            Click("bold"),
        ],
        check: "document.querySelector('.ql-editor strong')?.textContent ?? ''",
        want: "Hello world",
    },
    Page {
        name: "fontawesome",
        widget: "Font Awesome icon buttons",
        html: include_str!("pages/fontawesome.html"),
        controls: &["Reply", "Share", "fa-trash", "fa-star"],
        task: "press the trash icon button",
        steps: &[Click("fa-trash")],
        check: "document.getElementById('out').textContent",
        want: "deleted",
    },
    Page {
        name: "tabulator",
        widget: "Tabulator data grid",
        html: include_str!("pages/tabulator.html"),
        controls: &["Name", "Age", "Dave", "Alice"],
        task: "sort by Name, rename Dave to Dana",
        steps: &[Click("Name"), Click("Dave"), Fill("textbox|", "Dana"), Press("Enter")],
        check: "table.getRows('active').map(r => r.getData().name).join(',')",
        want: "Alice,Bob,Carol,Dana,Erin",
    },
];
