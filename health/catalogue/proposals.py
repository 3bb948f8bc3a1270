"""Help data: proposal finding ids (health.rules.proposals). Part of the catalogue read by explain and -v."""
from health.catalogue import Check, Problem

LOG = "O/pending-proposals.jsonl"

CHECKS = (
    Check("proposals:log", "the proposal queue is present and well formed",
          ok=("proposal-evidence-ok",), problems=(
        Problem(
            "proposal-evidence-missing", "warn",
            f"{LOG} does not exist, so the proposal backlog cannot be measured.",
            ("a new install where no proposal was ever queued", "the file was deleted or moved"),
            f"If no proposal was ever made, create the empty queue (touch {LOG}); otherwise restore it."),
        Problem(
            "proposal-evidence-malformed", "warn",
            f"{LOG} has malformed lines (a `null` line included) or cannot be read, so the pending count may be "
            "wrong.",
            ("a torn or concurrent write", "a hand edit", "the queue replaced by a symlink or a directory"),
            "Repair or remove the lines the finding names (keep a copy) and keep the queue a regular file."),
    )),
    Check("proposals:pending", "few proposals wait for approval",
          ok=("proposal-backlog-ok",), problems=(
        Problem(
            "proposal-backlog-high", "warn",
            "More proposals are pending than proposal_backlog (10 by default): approvals are not keeping up.",
            ("proposals not reviewed for a while", "the reviewer proposing more than usual"),
            "Review the queue: approve or reject the pending proposals so their status leaves \"pending\". "
            "Raise proposal_backlog only if a longer queue is normal for you.", threshold="proposal_backlog"),
    )),
)
