"""Saving the inspection form's edits, and taking them back.

Every field is saved when the user leaves it, on the worker: the window does not wait for
the save. From the moment a save is queued, the form shows the case as it will be stored
(the edit applied to what the form was based on) and the next edit is made on that, never
on the case from before the save. The worker runs jobs in the order they were queued, so
each save is stored before the next one on the parcel is looked at, and a parcel opened
after a save is read after it. When the last save on its way has landed, the form takes
the stored case, keeping whatever the user is typing by then.

Undo and redo wait for the saves on their way: they take back the edit the user made
last, as stored.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import shiboken6
from PySide6.QtGui import QUndoCommand
from PySide6.QtWidgets import QInputDialog

from ..errors import InputError, InspectorError
from .ops import Op

if TYPE_CHECKING:
    from ..domain.case import Case, FieldTest
    from ..services.workspace import Workspace
    from .forms import CaseForm
    from .workbench_parts import WorkbenchParts, Writes


LAST_REASON = "inspection_reason"  # the setting that remembers the last reason chosen


class SaveCase(QUndoCommand):
    """One edit of a parcel, already saved when it is pushed: undo writes the reverse of
    the same change (only those fields) to the same parcel, redo writes it again. A step
    that cannot be made any more (the values changed elsewhere) is dropped from the stack."""

    def __init__(self, edits: Writes, parcel_id: str, before: Case, after: Case,
                 text: str) -> None:
        super().__init__(text)
        self.edits, self.parcel_id, self.before, self.after = edits, parcel_id, before, after
        self.saved = True
        self._inside = False  # in undo() or redo(), which the stack is running

    def redo(self) -> None:
        if self.saved:
            self.saved = False  # pushed after the save itself
            return
        self._write(self.before, self.after)

    def undo(self) -> None:
        self._write(self.after, self.before)

    def _write(self, before: Case, after: Case) -> None:
        self._inside = True
        try:
            self.edits.save_edit(self.parcel_id, before, after, refused=self._refused)
        finally:
            self._inside = False

    def _refused(self) -> None:
        if not shiboken6.isValid(self):
            return  # the stack has let it go already (another parcel was opened)
        self.setObsolete(True)
        if not self._inside:  # within undo() or redo() the stack drops it on return
            self.edits.drop_obsolete()


class MarkInError(QUndoCommand):
    """An inspection marked entered in error, already marked when it is pushed: undo takes
    the mark off (the inspection counts again), redo marks it again with the same reason."""

    def __init__(self, edits: CaseEdits, sbl: str, inspection_id: str, reason: str,
                 text: str) -> None:
        super().__init__(text)
        self.edits, self.sbl, self.inspection_id, self.reason = edits, sbl, inspection_id, reason
        self.done = True

    def redo(self) -> None:
        if self.done:
            self.done = False  # pushed after the mark itself
            return
        self.write(mark=True)

    def undo(self) -> None:
        self.write(mark=False)

    def write(self, *, mark: bool, then: Callable[[], None] | None = None) -> None:
        from ..services.parcel import inspections

        edits, ws = self.edits, self.edits.ctx.ws
        assert ws is not None
        day = edits.ctx.today()
        edits.started()

        def done(_: object) -> None:
            if then is not None:
                then()
            edits.ctx.say(f"The {self.text()}" if mark else f"Undone: {self.text()}")
            edits.landed(self.sbl, edits.wb.parcel_id or "", None)

        def failed(exc: BaseException) -> None:
            self.setObsolete(True)
            edits.refused(self.sbl, str(exc))
            edits.landed(self.sbl, edits.wb.parcel_id or "", None)

        def work() -> object:
            if mark:
                return inspections.mark_entered_in_error(ws, self.sbl, self.inspection_id,
                                                         reason=self.reason, on=day)
            return inspections.restore(ws, self.sbl, self.inspection_id)

        Op(edits.ctx.runner, work).success(done).failure(failed).run()


class DecideSuggestion(QUndoCommand):
    """A suggested finding accepted or rejected, already decided when it is pushed: it is
    the top undo step (the decision changes the records the form's earlier steps wrote),
    undone as its Undo decision link undoes it, redone with the same decision and note."""

    def __init__(self, edits: CaseEdits, sbl: str, key: str, *, accept: bool, note: str,
                 text: str) -> None:
        super().__init__(text)
        self.edits, self.sbl, self.key, self.accept, self.note = edits, sbl, key, accept, note
        self.done = True

    def redo(self) -> None:
        if self.done:
            self.done = False  # pushed after the decision itself
            return
        self.write(decide=True)

    def undo(self) -> None:
        self.write(decide=False)

    def write(self, *, decide: bool, then: Callable[[], None] | None = None) -> None:
        edits, ws = self.edits, self.edits.ctx.ws
        assert ws is not None
        day = edits.ctx.today()
        edits.started()

        def done(result: Any) -> None:
            if then is not None:
                then()
            elif decide:
                edits.ctx.say(f"Redone: {self.text()}.")
            if not decide:
                edits.ctx.say(result.summary())
            edits.landed(self.sbl, edits.wb.parcel_id or "", None)

        def failed(exc: BaseException) -> None:
            self.setObsolete(True)
            edits.refused(self.sbl, exc.in_app if isinstance(exc, InspectorError) else str(exc))
            edits.landed(self.sbl, edits.wb.parcel_id or "", None)

        def work() -> Any:
            if decide:
                return ws.decide_suggestion(self.sbl, self.key, accept=self.accept,
                                            note=self.note or None, as_of=day)
            return ws.reopen_suggestion(self.sbl, self.key)

        Op(edits.ctx.runner, work).success(done).failure(failed).run()


class CaseEdits:
    """The workbench's form edits: checked, saved in order, undone and redone."""

    def __init__(self, workbench: WorkbenchParts) -> None:
        self.wb = workbench
        self.ctx = workbench.ctx
        self.form: CaseForm = workbench.form
        self.undo_stack = workbench.undo_stack
        self.writing = 0  # saves and map edits of the open parcel still on their way
        self._waiting: list[Callable[[], None]] = []  # to do once those have landed
        self._refusal: str | None = None  # why a save was refused, to show with the stored
        # an edit the database refused to the login (a town's writes nothing): the form
        # shows it over what is stored, not saved, until the user changes it or leaves
        self._refused_edit: tuple[Case, Case] | None = None
        self.form.edited.connect(self._form_edited)
        self.form.components_edited.connect(self._components_edited)
        self.form.field_tests.changed.connect(self._tests_edited)
        self.form.field_tests.problem.connect(self.wb.show_problem)
        self.form.field_tests.clock = self._clock
        self.form.inspection_requested.connect(self._new_inspection)
        self.form.entered_in_error_requested.connect(self._mark_in_error)

    # --- edits made in the form -------------------------------------------------------

    def _form_edited(self, form: CaseForm) -> None:
        try:
            before, after = form.current_edit()
        except ValueError as exc:
            self.wb.show_problem(f"Not saved: {exc}")
            return
        self.commit(before, after)

    def _components_edited(self, after: Case) -> None:
        if self.form.case is not None:
            self.commit(self.form.case, after)

    def _clock(self) -> datetime:
        """The data folder's clock (the app's, with none open)."""
        return self.ctx.ws.clock() if self.ctx.ws is not None else datetime.now(UTC)

    def _tests_edited(self, tests: tuple[FieldTest, ...]) -> None:
        """A test started, stopped, given its preset or an observation: saved at once,
        with whatever else the form shows changed."""
        try:
            before, after = self.form.current_edit()
        except ValueError as exc:
            self.wb.show_problem(f"Not saved: {exc}")
            return
        if after.inspection is not None:
            self.commit(before, replace(after, inspection=replace(after.inspection,
                                                                  tests=tests)))

    def _new_inspection(self, current: Case) -> None:
        """Today's visit as a new inspection by the user, nothing copied from the last
        one (its certification, weather and findings were someone else's, another day)."""
        from dataclasses import replace

        from ..domain.case import Inspection
        from ..domain.labels import words
        from ..domain.vocabulary import InspectionReason

        ws = self.ctx.ws
        if self.form.case is None or ws is None:
            return
        day = self.ctx.today()
        if current.inspection is not None and current.inspection.date == day:
            self.wb.show_problem(f"An inspection dated {day.isoformat()} is already on "
                                 "record for this parcel: the form shows it.")
            return
        user = ws.store.actor.user
        reasons = [r.value for r in InspectionReason]
        # the reason chosen last time is offered first: a day's visits are often alike
        last = str(self.wb.settings.value(LAST_REASON, ""))
        choice, ok = QInputDialog.getItem(
            self.wb.window(), "New inspection", f"Reason for the inspection of "
            f"{day.isoformat()} by {user}:", [words(r) for r in reasons],
            reasons.index(last) if last in reasons else 0, False)
        if not ok:
            return
        reason = InspectionReason(reasons[[words(r) for r in reasons].index(choice)])
        self.wb.settings.setValue(LAST_REASON, reason.value)
        self.commit(self.form.case, replace(current, inspection=Inspection(
            date=day, inspector=user, reason=reason)))

    def _mark_in_error(self, case: Case) -> None:
        """Mark the inspection shown entered in error (asking why), undoably."""
        inspection = case.inspection
        if inspection is None or inspection.id is None or self.wb.parcel_id is None:
            return
        reason, ok = QInputDialog.getText(
            self.wb.window(), "Inspection entered in error",
            f"Why was the inspection of {inspection.date.isoformat()} by "
            f"{inspection.inspector} entered in error? It stays on record with this reason "
            "and counts no more.")
        if not ok:
            return
        step = MarkInError(self, case.parcel.sbl, inspection.id, reason,
                           f"inspection of {inspection.date.isoformat()} entered in error")
        step.write(mark=True, then=lambda: self.undo_stack.push(step))

    def commit(self, before: Case, after: Case) -> None:
        """Check an edit as a case file is checked, save it, and put it on the undo stack
        once it is stored."""
        from .. import casefile
        from ..domain.edits import changed_paths
        from ..domain.labels import field_label

        parcel_id = self.wb.parcel_id
        if parcel_id is None or before.parcel.sbl != self.wb.sbl:
            return  # the form is not showing the open parcel: never save it anywhere
        found = casefile.new_problem(before, after, source="The form", today=self.ctx.today())
        if found is not None:
            self.wb.show_problem(f"Not saved: {found.removeprefix('The form: ')}")
            return
        self.wb.problem.hide()
        if after == before:
            return
        paths = changed_paths(before, after)
        text = field_label(paths[0], before) if len(paths) == 1 else f"{len(paths)} fields"
        self.save_edit(parcel_id, before, after, saved=lambda: self.undo_stack.push(
            SaveCase(self, parcel_id, before, after, text)))

    # --- saves on their way -----------------------------------------------------------

    def save_edit(self, parcel_id: str, before: Case, after: Case, *,
                  saved: Callable[[], None] | None = None,
                  refused: Callable[[], None] | None = None) -> None:
        """Queue the change from `before` to `after`, to be written onto the parcel
        `parcel_id` as stored by then; the open parcel's form shows it at once. `saved` or
        `refused` is called when the worker has written it, or refused it."""
        ws = self.ctx.ws
        assert ws is not None  # a parcel is open
        day = self.ctx.today()
        sbl = before.parcel.sbl
        if parcel_id == self.wb.parcel_id:
            self._show_coming(before, after)
        self.started()

        def stored(result: tuple[Case, int]) -> None:
            case, _version = result
            if saved is not None:
                saved()
            self.ctx.say(f"Saved {case.parcel.sbl}")
            self.landed(sbl, parcel_id, case)

        def failed(exc: BaseException) -> None:
            if refused is not None:
                refused()
            if isinstance(exc, InputError):
                text = str(exc).removeprefix("The form: ")
            else:
                text = f"Not saved: {type(exc).__name__}: {exc}"
                self.ctx.error(exc)
            if sbl == self.wb.wanted and parcel_id == self.wb.parcel_id:
                self._refusal = text
                self._refused_edit = (before, after) if _refused_to_login(ws, exc) else None
                self.wb.show_problem(text)
            self.landed(sbl, parcel_id, None)

        Op(self.ctx.runner, lambda: ws.save_edit(parcel_id, before, after, today=day)).success(
            stored).failure(failed).run()

    def _show_coming(self, before: Case, after: Case) -> None:
        """The form shows the change as it will be stored, and the next edit is made on
        it. A change that cannot be made on what the form shows is refused by the worker
        too; the form then shows what is stored."""
        from ..domain.edits import EditConflict, apply_edit

        base = self.form.case
        if base is None:
            return
        try:
            coming: Case = apply_edit(base, before, after)
        except EditConflict:
            return
        if coming == base:
            return
        try:
            shows: Case | None = self.form.current_edit()[1]
        except ValueError:
            shows = None  # a field the form cannot read yet: the user is in it
        try:
            # A form edit shows already what it saves: loading it changes no field and
            # makes it the base of the next edit. Otherwise a field the user is typing in
            # is left as it is (rebase); with none, the form shows the change.
            if shows == coming or not self.form.is_dirty():
                self.form.load(coming)
            else:
                self.form.rebase(coming)
        except Exception as exc:
            self.wb.load_failed(base.parcel.sbl, exc)

    def started(self) -> None:
        """A write of the open parcel is on its way (a save, a map edit)."""
        self.writing += 1

    def landed(self, sbl: str, parcel_id: str, case: Case | None) -> None:
        """A write of `sbl` is done: `case` is what it stored, None if it was refused. Once
        nothing more is on its way, the open parcel shows what is stored."""
        self.writing = max(self.writing - 1, 0)
        if self.writing:
            return
        if sbl == self.wb.wanted and parcel_id == self.wb.parcel_id:
            if case is None:
                self.wb.open_parcel(sbl)  # show what is stored, and why (take_refusal)
            else:
                self.wb.show_case(case, same_record=True)
        waiting, self._waiting = self._waiting, []
        for then in waiting:
            then()

    def refused(self, sbl: str, text: str) -> None:
        """A step on the open parcel was refused: say why, and keep saying it once the
        parcel shows what is stored again."""
        if sbl == self.wb.wanted:
            self._refusal = text
            self.wb.show_problem(text)

    def take_refusal(self) -> str | None:
        refusal, self._refusal = self._refusal, None
        return refusal

    def take_refused_edit(self) -> tuple[Case, Case] | None:
        """The edit last refused to the login, as (before, after): the form keeps it."""
        edit, self._refused_edit = self._refused_edit, None
        return edit

    def forget_waiting(self) -> None:
        """Another parcel is shown: nothing waits to be done on the one before."""
        self._waiting.clear()
        self._refusal = None
        self._refused_edit = None

    def _when_landed(self, then: Callable[[], None]) -> bool:
        """Do `then` once the writes on their way have landed; False if none is."""
        if self.writing:
            self._waiting.append(then)
        return bool(self.writing)

    # --- undo, redo, Ctrl+S ------------------------------------------------------------

    def undo(self) -> None:
        if self.form.is_dirty():
            self.form.revert()
            self.wb.problem.hide()
            self.ctx.say("Typing not yet saved was taken back.")
        elif self._when_landed(self.undo):
            return
        elif self.undo_stack.canUndo():
            self.undo_stack.undo()
        else:
            self.ctx.say("Nothing to undo for this parcel.")

    def redo(self) -> None:
        if self.form.is_dirty():
            self.form.revert()
        if self._when_landed(self.redo):
            return
        if self.undo_stack.canRedo():
            self.undo_stack.redo()
        else:
            self.ctx.say("Nothing to redo.")

    def drop_obsolete(self) -> None:
        """Take out a step next to the stack's index that can no longer be made (a redo of
        an obsolete step deletes it and does nothing; so does an undo)."""
        stack = self.undo_stack
        index = stack.index()
        if index < stack.count() and stack.command(index).isObsolete():
            stack.redo()
        elif index > 0 and stack.command(index - 1).isObsolete():
            stack.undo()

    def confirm_saved(self) -> None:
        """Ctrl+S: every finished field is saved at once; this finishes the one in hand."""
        if self.form.is_dirty():
            self._form_edited(self.form)
        if not self._when_landed(self._say_all_saved):
            self._say_all_saved()

    def _say_all_saved(self) -> None:
        if self.wb.problem.isVisible():
            return
        self.ctx.say("All changes are saved: every field is saved as you leave it.")


def _refused_to_login(ws: Workspace, exc: BaseException) -> bool:
    """The office database refused the login's role the save (nothing else was wrong with
    it): what the user typed stays in the form."""
    if ws.store.database is None:
        return False
    from ..storage.postgres import PermissionRefused

    return isinstance(exc, PermissionRefused)
