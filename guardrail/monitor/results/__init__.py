"""Results stores: where the worker keeps scored samples and ``guardrail report`` reads them (CONTRACT 8.3, 8.5).

``open_results(url)`` opens one:

- ``sqlite:///RELATIVE/PATH`` (from the current directory; the default is ``sqlite:///.guardrail/results.db``) or
  ``sqlite:////ABSOLUTE/PATH``: the embedded store, one file shared by the processes of one machine;
- ``postgresql://USER:PASSWORD@HOST:PORT/DB`` (also ``postgres://``, and any libpq URI parameter such as
  ``?sslmode=require`` or ``?options=-csearch_path%3Dmonitor``): one store shared by workers on many machines; needs
  ``pip install 'guardrail[postgres]'``.

Both engines hold the same table (``guardrail_results``, a column per field, the summary's counts as integer
columns) and a ``guardrail_schema`` version row; they create it when missing and refuse a newer version. Writes are
idempotent by sample id, so at-least-once delivery stores each sample once.
"""

from __future__ import annotations

from ._base import SCHEMA_VERSION, ResultRecord, ResultsError, ResultsStore, mask_url
from ._sqlite import DEFAULT_PATH

DEFAULT_URL = f"sqlite:///{DEFAULT_PATH}"

__all__ = ["DEFAULT_URL", "SCHEMA_VERSION", "ResultRecord", "ResultsError", "ResultsStore", "open_results"]


def open_results(url: str) -> ResultsStore:
    """The results store at ``url`` (see the module's docstring), its tables created if missing."""
    scheme = url.partition("://")[0].lower() if "://" in url else ""
    if scheme == "sqlite":
        from ._sqlite import SqliteResults

        return SqliteResults(url)
    if scheme in ("postgresql", "postgres"):
        from ._postgres import PostgresResults

        return PostgresResults(url)
    raise ResultsError(f"unsupported results URL {mask_url(url)!r}: use sqlite:///PATH or "
                       "postgresql://USER:PASSWORD@HOST:PORT/DB")
