"""A sandbox started by root runs its session and applications as the unprivileged desktop user."""

from __future__ import annotations

import os
import pwd
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from pcagent import actions as act
from pcagent.bench.fixtures import write_file
from pcagent.bench.tasks import FileFixture
from pcagent.env import SandboxConfig, SandboxDesktop, processes
from pcagent.env.accessibility import WorkerKind, WorkerProcess
from pcagent.env.browser_profile import prepare_profile
from pcagent.env.ownership import DESKTOP_USER, closed_on_the_way
from pcagent.errors import AppLaunchError, DesktopError, SandboxStartError
from pcagent.runtime.safety.home_snapshot import HomeSnapshots

pytestmark = [pytest.mark.desktop]


def _desktop_user() -> tuple[int, int]:
    if os.geteuid() != 0:
        pytest.skip("the sandbox changes user only when pcagent runs as root")
    try:
        entry = pwd.getpwnam(DESKTOP_USER)
    except KeyError:
        pytest.skip(f"the user {DESKTOP_USER} is missing: run `bash scripts/install-system.sh`")
    return entry.pw_uid, entry.pw_gid


@pytest.fixture(scope="module")
def user() -> tuple[int, int]:
    return _desktop_user()


def _uid_of(pid: int) -> int:
    """The real uid of a process (the first field of its status's ``Uid:`` line)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Uid:"):
            real, effective, saved, filesystem = (int(f) for f in line.split()[1:5])
            assert real == effective == saved == filesystem, line
            return real
    raise AssertionError(f"no Uid line for {pid}")


def _processes_of(uid: int) -> set[int]:
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit() and processes.is_alive(int(entry)):
            try:
                if os.stat(f"/proc/{entry}").st_uid == uid:
                    found.add(int(entry))
            except FileNotFoundError:
                continue  # ended while we looked
    return found


@pytest.fixture
def editor_desktop(user: tuple[int, int]) -> Iterator[SandboxDesktop]:
    """A sandbox with the text editor open; after it closes, no process of it may remain."""
    sandbox = SandboxDesktop().start()
    assert sandbox.state is not None
    marker, root = sandbox.state.sandbox_id, sandbox.state.root
    try:
        sandbox.open_app("text_editor")
        yield sandbox
    finally:
        sandbox.close()
        assert processes.find_marked_processes(marker) == []
        assert not root.exists()


def test_the_session_and_the_applications_run_as_the_desktop_user(
    editor_desktop: SandboxDesktop, user: tuple[int, int]
) -> None:
    state = editor_desktop.state
    assert state is not None and state.run_as == user
    (editor,) = state.app_pids["text_editor"]
    assert _uid_of(editor) == user[0]
    # Xvfb stays root (the display server); the buses and the window manager are the user's,
    # and so is every other process of the sandbox (D-Bus activated services, the helpers).
    editor_desktop.observe()
    helper = editor_desktop.accessibility.pid
    assert helper is not None and _uid_of(helper) == user[0]
    owners = {
        pid: (Path(f"/proc/{pid}/comm").read_text().strip(), _uid_of(pid))
        for pid in processes.find_marked_processes(state.sandbox_id)
    }
    names = {name for name, _uid in owners.values()}
    assert {"Xvfb", "dbus-daemon", "at-spi-bus-laun", "xfwm4", "mousepad"} <= names, owners
    assert {uid for name, uid in owners.values() if name != "Xvfb"} == {user[0]}, owners
    assert {uid for name, uid in owners.values() if name == "Xvfb"} == {0}


def test_home_is_the_users_and_the_rest_of_the_sandbox_folder_roots(
    editor_desktop: SandboxDesktop, user: tuple[int, int]
) -> None:
    state = editor_desktop.state
    assert state is not None
    home, runtime = state.home, Path(state.env["XDG_RUNTIME_DIR"])
    for path in [home, *home.rglob("*")]:
        status = os.lstat(path)
        assert (status.st_uid, status.st_gid) == user, path
    assert os.stat(home).st_mode & 0o777 == 0o700
    assert (os.stat(runtime).st_uid, os.stat(runtime).st_mode & 0o777) == (user[0], 0o700)
    # The state file names the processes root ends: the user may not replace it.
    assert os.stat(state.root).st_uid == 0 and os.stat(state.root).st_mode & 0o022 == 0
    xauthority = os.stat(state.env["XAUTHORITY"])
    assert (xauthority.st_uid, xauthority.st_gid, xauthority.st_mode & 0o777) == (0, user[1], 0o640)


def test_the_editor_shows_no_root_warning_and_its_tree_is_read(
    editor_desktop: SandboxDesktop,
) -> None:
    observation = editor_desktop.observe()
    names = {e.name for e in observation.elements if e.app == "mousepad"}
    assert {"File", "Edit", "Search"} <= names, observation.element_listing()
    assert not [e for e in observation.elements if "root" in f"{e.name} {e.text}".lower()]
    editor_desktop.execute(act.TypeText(text="typed by an unprivileged editor"))
    area = next(e for e in editor_desktop.observe().elements if e.role == "text")
    assert editor_desktop.accessibility.text_of(area.id) == "typed by an unprivileged editor"


def test_a_program_of_the_sandbox_cannot_write_outside_home(
    editor_desktop: SandboxDesktop,
) -> None:
    state = editor_desktop.state
    assert state is not None
    outside = Path("/root") / f"pcagent-unprivileged-{secrets.token_hex(4)}"
    inside = state.home / "written-by-the-user"
    try:
        for target, succeeds in ((outside, False), (inside, True)):
            process = processes.spawn(
                ["touch", str(target)], state.env, state.root / "logs" / "touch.log",
                run_as=state.run_as,
            )  # fmt: skip
            assert (process.wait(timeout=10) == 0) is succeeds, target
        assert not outside.exists()
        assert inside.is_file()
    finally:
        outside.unlink(missing_ok=True)


def test_files_pcagent_writes_into_home_are_the_users_and_the_editor_saves_over_them(
    editor_desktop: SandboxDesktop, user: tuple[int, int], tmp_path: Path
) -> None:
    home = editor_desktop.home
    snapshots = HomeSnapshots(tmp_path / "store")
    document = write_file(home, FileFixture(path="Documents/notes/plan.txt", text="old plan\n"))
    before = snapshots.capture(home)
    document.unlink()
    (home / "Documents" / "notes").rmdir()
    snapshots.restore(home, before)  # rewrites the file and the folder it is in
    preferences = prepare_profile(home)
    for path in (document, document.parent, home / "Documents", preferences, preferences.parent):
        status = os.lstat(path)
        assert (status.st_uid, status.st_gid) == user, path

    editor_desktop.close_apps()
    editor_desktop.open_app("text_editor", [document])
    editor_desktop.execute(act.Hotkey(keys=["ctrl", "a"]))
    editor_desktop.execute(act.TypeText(text="new plan\n"))
    editor_desktop.execute(act.Hotkey(keys=["ctrl", "s"]))
    editor_desktop.wait_settled()
    assert document.read_text() == "new plan\n"


def test_reset_gives_the_fresh_home_to_the_user(
    editor_desktop: SandboxDesktop, user: tuple[int, int]
) -> None:
    editor_desktop.reset()
    home = editor_desktop.home
    assert {(os.lstat(p).st_uid, os.lstat(p).st_gid) for p in [home, *home.rglob("*")]} == {user}


def test_closing_the_sandbox_leaves_no_process_of_the_user(user: tuple[int, int]) -> None:
    before = _processes_of(user[0])
    sandbox = SandboxDesktop().start()
    try:
        sandbox.open_app("text_editor")
        sandbox.open_app("calculator")
        sandbox.observe()
        assert _processes_of(user[0]) - before
    finally:
        sandbox.close()
    assert _processes_of(user[0]) - before == set()


def test_switched_off_the_applications_run_as_root(user: tuple[int, int]) -> None:
    with SandboxDesktop(SandboxConfig(unprivileged_apps=False)) as sandbox:
        assert sandbox.state is not None and sandbox.state.run_as is None
        sandbox.open_app("text_editor")
        (editor,) = sandbox.state.app_pids["text_editor"]
        assert _uid_of(editor) == 0
        assert os.stat(sandbox.home).st_uid == 0


def test_a_document_the_user_cannot_read_is_refused_before_the_editor_starts(
    editor_desktop: SandboxDesktop,
) -> None:
    closed = Path("/root") / f"pcagent-unprivileged-{secrets.token_hex(4)}.txt"
    closed.write_text("root's")
    try:
        with pytest.raises(AppLaunchError, match="copy the file into the sandbox's HOME"):
            editor_desktop.open_app("text_editor", [closed])
    finally:
        closed.unlink()


def test_an_unreachable_sandbox_folder_is_a_start_error_naming_the_fix(
    user: tuple[int, int], tmp_path: Path
) -> None:
    # pytest's folders (/tmp/pytest-of-root) are closed to other users.
    with pytest.raises(SandboxStartError, match="unprivileged_apps = false"):
        SandboxDesktop(SandboxConfig(root=tmp_path / "sandbox")).start()
    assert not (tmp_path / "sandbox").exists()


def test_a_worker_runs_as_the_user_from_an_installation_closed_to_it(
    user: tuple[int, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pcagent installed under a folder the user cannot enter (a clone under /root) still starts
    its workers as the user: their source, and that of the package's modules they import, is
    handed over, not read from the installation."""
    closed = tmp_path / "closed"
    closed.mkdir(mode=0o700)
    module = f"pcagent_probe_{secrets.token_hex(4)}"
    (closed / f"{module}.py").write_text(
        "import os, sys\n"
        "from pcagent.env.worker_protocol import dispatch_by_op, serve\n"
        "who = {'who': lambda request: {'uid': os.getuid(), 'argv': sys.argv}}\n"
        "serve(sys.stdin, sys.stdout, dispatch_by_op(who))\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(closed))
    probe = WorkerKind(module, "probe worker", DesktopError, "it hung", "it exited")
    worker = WorkerProcess(
        probe, {"PATH": "/usr/bin:/bin"}, timeout=20, args=("first", "second"), run_as=user
    )
    try:
        answer = worker.request("who")
    finally:
        worker.close()
    assert answer["uid"] == user[0]
    assert answer["argv"] == [module, "first", "second"]
    assert closed_on_the_way(closed / f"{module}.py", user, os.R_OK) is not None  # truly closed
