//! Tests for the desktop user: who it is, its dir's owners and modes, uploads handed over.

use super::*;

#[test]
fn users_resolve_by_name_uid_or_default() {
    let nobody = resolve(Some("65534")).expect("a uid needs no entry");
    assert_eq!((nobody.uid, nobody.gid), (65534, 65534));
    assert_eq!(resolve(Some("4242424")).expect("unknown uid").name, "4242424");
    assert!(matches!(resolve(Some("no-such-user-here")), Err(UserError::Unknown(_))));
    let default = resolve(None).expect("a default");
    assert_ne!(default.uid, 0, "never root: {default:?}");
}

#[test]
fn the_desktop_dir_is_roots_and_its_parts_the_users() {
    if !nix::unistd::geteuid().is_root() {
        return; // chown needs root; the daemon only prepares this dir as root
    }
    let dir = std::env::temp_dir().join(format!("glovebox-user-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let id = Identity { name: "nobody".into(), uid: 65534, gid: 65534 };
    let user = DesktopUser::prepare(id.clone(), &dir).expect("prepared");
    let meta = |p: &Path| std::fs::symlink_metadata(p).expect("exists");
    assert_eq!((meta(&dir).uid(), meta(&dir).mode() & 0o777), (0, 0o711));
    for owned in [user.home(), user.profile(), user.downloads()] {
        assert_eq!((meta(&owned).uid(), meta(&owned).mode() & 0o777), (65534, 0o700));
    }
    // A file of the daemon's, handed to a page: a copy the user owns.
    let src = dir.join("secret-source.txt");
    std::fs::write(&src, "payload").expect("write");
    let copy = user.hand_over(&src).expect("handed over");
    assert_eq!(std::fs::read_to_string(&copy).expect("copy"), "payload");
    assert_eq!(copy.file_name(), src.file_name());
    assert_eq!(meta(&copy).uid(), 65534);
    // A symlink in the user's downloads is not followed.
    let planted = user.downloads().join("planted");
    std::os::unix::fs::symlink(&src, &planted).expect("symlink");
    assert!(user.hand_over(&planted).is_err(), "a symlink is refused");
    // Taken over again: the user's things stay, a foreign dir in the way is replaced.
    std::fs::write(user.downloads().join("kept"), "k").expect("write");
    let again = DesktopUser::prepare(id, &dir).expect("again");
    assert!(again.downloads().join("kept").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
