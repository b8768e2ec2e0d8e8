"""What docs/visualisation.md promises, read from its tables, so the tests fail when a documented
plot or exported field is not produced (or a produced one is not documented)."""
import re
from pathlib import Path


def table_rows(doc, first_header):
    """The rows (lists of cells, backticks removed) of the Markdown table whose header row starts
    with `| first_header |` in the file `doc`."""
    rows, inside = [], False
    for line in Path(doc).read_text().splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if not inside:
            inside = line.startswith("|") and cells[0] == first_header
            continue
        if not line.startswith("|"):
            break
        if not re.fullmatch(r"-+", cells[0]):
            rows.append(cells)
    assert rows, f"no table headed '{first_header}' in {doc}"
    return rows


def plots(doc):
    """{file name: set of the kinds of run that get it} from the `tendril plot` table."""
    return {row[0]: {k.strip() for k in row[1].split(",")} for row in table_rows(doc, "file")}


def rod_fields(doc):
    """{field name: 'points' or 'cells'} from the rod runs' VTK field table."""
    return {row[0]: row[1] for row in table_rows(doc, "field")}
