"""The graded tree's digest: the entrant's files, never caches, databases or the marker."""

from benchwright.suites.kit.tree import locate_root, tree_sha256


def make_tree(root):
    (root / "vspro" / "web").mkdir(parents=True)
    (root / "vspro" / "__main__.py").write_text("print('hi')\n")
    (root / "vspro" / "web" / "index.html").write_text("<p>hi</p>\n")
    return root


def test_caches_databases_and_the_freeze_marker_do_not_change_the_digest(tmp_path):
    root = make_tree(tmp_path / "t")
    before = tree_sha256(root)
    (root / "vspro" / "__pycache__").mkdir()
    (root / "vspro" / "__pycache__" / "m.cpython-311.pyc").write_bytes(b"\0")
    (root / "vspro.db").write_bytes(b"sqlite")
    (root / "vspro.db-wal").write_bytes(b"wal")
    (root / "sb6-reference-pass.json").write_text("{}\n")
    assert tree_sha256(root) == before


def test_any_entrant_file_changes_the_digest(tmp_path):
    root = make_tree(tmp_path / "t")
    before = tree_sha256(root)
    (root / "vspro" / "web" / "index.html").write_text("<p>hi!</p>\n")
    edited = tree_sha256(root)
    (root / "vspro" / "sb6-reference-pass.json").write_text("{}\n")  # not at the root: counted
    assert len({before, edited, tree_sha256(root)}) == 3


def test_a_nested_package_one_level_down_is_found(tmp_path):
    make_tree(tmp_path / "built")
    assert locate_root(tmp_path, "vspro") == tmp_path / "built"
