"""Field <-> office sync: enrolment, field kits, export, import, conflicts.

The office enrols each laptop, giving it an identity and its own Ed25519 private key in a
field kit, encrypted with a passphrase, with its parcels, the shoreline layer, the
jurisdiction file and the office's public key. Each side signs with its private key and
holds only the other's public key (docs/security.md). Each side exports what the other may
not have; the receiver checks the whole package, backs up, and applies it in one
transaction, field by field against the base value. A laptop keeps sending a change until
the office has acknowledged it; the office reports sequence gaps. The office revokes a
lost laptop (its packages are refused from then on), and either side rotates its key, the
new one endorsed by the old.

This package's modules, from the bottom: `devices`, `resolution`, `assignment`,
`conflicts`, `enrolment`, `kits`, `outgoing`, `incoming`. What the command line and the
app call is named here.
"""

from .conflicts import conflicts, field_label, open_conflicts, resolve, value_text
from .devices import office_fingerprint, revoke, rotate_key
from .enrolment import check_enrolment, enroll
from .incoming import import_package
from .kits import holds_nothing_yet, join
from .outgoing import GAPS_LISTED, export, status

__all__ = ["GAPS_LISTED", "check_enrolment", "conflicts", "enroll", "export", "field_label",
           "holds_nothing_yet", "import_package", "join", "office_fingerprint",
           "open_conflicts", "resolve", "revoke", "rotate_key", "status", "value_text"]
