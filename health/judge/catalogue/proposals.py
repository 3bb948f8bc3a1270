"""Help data: proposal finding ids (health.judge.rules.proposals). Part of the catalogue read by explain and -v."""
from health.judge.catalogue import WARN, Check, Ok, Problem, checks_of

LOG = "O/pending-proposals.jsonl"

PROPOSALS_LOG = Check("proposals:log", "the proposal queue is present and well formed")
PROPOSAL_EVIDENCE_OK = Ok("proposal-evidence-ok", PROPOSALS_LOG)
PROPOSAL_EVIDENCE_MISSING = Problem(
    "proposal-evidence-missing", WARN, PROPOSALS_LOG,
    f"{LOG} does not exist, so the proposal backlog cannot be measured.",
    ("a new install where no proposal was ever queued", "the file was deleted or moved"),
    f"If no proposal was ever made, create the empty queue (touch {LOG}); otherwise restore it.")
PROPOSAL_EVIDENCE_MALFORMED = Problem(
    "proposal-evidence-malformed", WARN, PROPOSALS_LOG,
    f"{LOG} has malformed lines (a `null` line included) or cannot be read, so the pending count may be "
    "wrong.",
    ("a torn or concurrent write", "a hand edit", "the queue replaced by a symlink or a directory"),
    "Repair or remove the lines the finding names (keep a copy) and keep the queue a regular file.")

PROPOSALS_PENDING = Check("proposals:pending", "few proposals wait for approval")
PROPOSAL_BACKLOG_OK = Ok("proposal-backlog-ok", PROPOSALS_PENDING)
PROPOSAL_BACKLOG_HIGH = Problem(
    "proposal-backlog-high", WARN, PROPOSALS_PENDING,
    "More proposals are pending than proposal_backlog (10 by default): approvals are not keeping up.",
    ("proposals not reviewed for a while", "the reviewer proposing more than usual"),
    "Review the queue: approve or reject the pending proposals so their status leaves \"pending\". "
    "Raise proposal_backlog only if a longer queue is normal for you.", threshold="proposal_backlog")

CHECKS = checks_of(PROPOSAL_EVIDENCE_OK, PROPOSAL_EVIDENCE_MISSING, PROPOSAL_EVIDENCE_MALFORMED, PROPOSAL_BACKLOG_OK,
                   PROPOSAL_BACKLOG_HIGH)
