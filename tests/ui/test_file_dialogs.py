"""File dialogs open where the same kind of file was last chosen."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog, QMessageBox

from inspector_app.ui.file_dialogs import FileDialogs


class Dialog:
    """QFileDialog's static functions as a person answers them, with where they opened."""

    def __init__(self) -> None:
        self.opened_at: list[str] = []
        self.answer: str | list[str] = ""
        self.told: list[str] = []  # what the message box said (never left open)

    def one(self, _parent: Any, _title: str, start: str, filters: str = "") -> Any:
        self.opened_at.append(start)
        return (self.answer, filters) if filters else self.answer

    def many(self, _parent: Any, _title: str, start: str, filters: str) -> Any:
        self.opened_at.append(start)
        return self.answer, filters


@pytest.fixture
def dialog(monkeypatch: pytest.MonkeyPatch) -> Dialog:
    d = Dialog()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(d.one))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(d.one))
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", staticmethod(d.many))
    monkeypatch.setattr(QFileDialog, "getExistingDirectory",
                        staticmethod(lambda p, t, start: d.one(p, t, start)))
    monkeypatch.setattr(QMessageBox, "warning",
                        staticmethod(lambda _p, _t, text, *a, **k: d.told.append(text)))
    return d


def test_each_kind_of_file_opens_where_it_was_last_chosen(tmp_path: Path,
                                                          dialog: Dialog) -> None:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    files = FileDialogs(settings)
    camera, drive = tmp_path / "camera", tmp_path / "usb"
    camera.mkdir()
    drive.mkdir()
    for photo in ("a.jpg", "b.jpg"):
        (camera / photo).write_bytes(b"\xff\xd8\xff")
    (drive / "laptop-1.wikit").write_bytes(b"kit")

    dialog.answer = [str(camera / "a.jpg"), str(camera / "b.jpg")]
    assert files.open_files(None, "photos", "Photos") == [camera / "a.jpg", camera / "b.jpg"]
    dialog.answer = str(drive / "laptop-1.wikit")
    assert files.open_file(None, "field kits", "Field kit") == drive / "laptop-1.wikit"
    dialog.answer = ""  # cancelled: where it opened is not changed
    assert files.open_files(None, "photos", "Photos") == []
    assert files.open_file(None, "field kits", "Field kit") is None
    assert files.open_file(None, "case files", "Case file") is None
    assert dialog.opened_at == [str(Path.home()), str(Path.home()), str(camera), str(drive),
                                str(Path.home())]

    # remembered by the settings, so a new window (and the next start) opens there too
    again = FileDialogs(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    dialog.opened_at.clear()
    dialog.answer = str(drive / "laptop-2")  # a name typed without the suffix
    saved = again.save_file(None, "field kits", "Save the field kit", "laptop-2.wikit",
                            suffix=".wikit")
    assert saved is not None and saved[0] == drive / "laptop-2.wikit"
    assert dialog.opened_at == [str(drive / "laptop-2.wikit")]

    assert dialog.told == []

    # a drive that is out: the home folder instead
    shutil.rmtree(drive)
    dialog.answer = ""
    again.open_file(None, "field kits", "Field kit")
    assert dialog.opened_at[-1] == str(Path.home())


def test_a_file_that_cannot_be_read_is_told_and_not_handed_on(tmp_path: Path,
                                                             dialog: Dialog) -> None:
    files = FileDialogs(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    (tmp_path / "photos").mkdir()
    (tmp_path / "kept.jpg").write_bytes(b"\xff\xd8\xff")
    dialog.answer = [str(tmp_path / "photos"), str(tmp_path / "kept.jpg"),
                     str(tmp_path / "gone.jpg")]
    assert files.open_files(None, "photos", "Photos") == [tmp_path / "kept.jpg"]
    assert len(dialog.told) == 2
    assert str(tmp_path / "photos") in dialog.told[0] and "folder" in dialog.told[0]
    assert str(tmp_path / "gone.jpg") in dialog.told[1]


def test_a_data_folder_dialog_opens_beside_the_folder_last_chosen(tmp_path: Path,
                                                                  dialog: Dialog) -> None:
    files = FileDialogs(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    (tmp_path / "programs" / "canandaigua").mkdir(parents=True)
    dialog.answer = str(tmp_path / "programs" / "canandaigua")
    assert files.folder(None, "data folders", "Open") == tmp_path / "programs" / "canandaigua"
    files.folder(None, "data folders", "Open")
    assert dialog.opened_at == [str(Path.home()), str(tmp_path / "programs")]
