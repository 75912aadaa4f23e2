"""scriptforge: a bilingual Blood on the Clocktower character database and script builder."""

from scriptforge.database import Database, load_database
from scriptforge.errors import ScriptforgeError

__version__ = "0.1.0"
__all__ = ["Database", "load_database", "ScriptforgeError", "__version__"]
