"""`cuesim batch --params FILE.csv` (cuesim.commands.batch.read_params): the CSV is read strictly
and every cell must be a plain decimal or scientific number.

Before this door checked them, Python's float() read '1_0' as 10 and '9_0' as 90 (digit
separators), and Unicode digits as numbers, and the lenient csv.reader read a quote left open
(`5,"90` with no closing quote, a file cut short) as the cell '90\\n': each ran shots the file
did not say. Now each is one line naming the file, the line and (for a cell) the column, exit
status 2. Blanks around a cell stay allowed, as around the header's names."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

from cuesim.batch import read_results
from cuesim.batch.params import BatchError
from cuesim.batch.store import parts_dir
from cuesim.cli import main
from cuesim.commands.batch import read_params


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["batch", *args])
    return code, capsys.readouterr().err


@pytest.mark.parametrize("text, message", [
    # the audit's cases: digit separators ran speed 10, angle 90; an open quote ran angle 90
    ("speed,angle\n1_0,9_0\n", "line 2, column 'speed': '1_0' is not a number (expected a "
                               "plain decimal or scientific number"),
    ('speed,angle\n5,"90\n', "cannot be read as CSV (line 2: a quoted cell is never closed: is "
                             "the file cut short?)"),
    ('speed,angle\n5,80\n5,"90\n5,70\n', "cannot be read as CSV (line 3: a quoted cell is never "
                                         "closed"),
])
def test_the_cli_refuses_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     text: str, message: str) -> None:
    params = tmp_path / "p.csv"
    params.write_text(text)
    out = tmp_path / "o.npz"
    code, err = _run(["novus", "--params", str(params), "--out", str(out), "--quiet",
                      "--workers", "1"], capsys)
    assert code == 2, err
    assert err.count("\n") == 1 and f"parameter file {str(params)!r}" in err and message in err
    assert not out.exists() and not parts_dir(out).exists()


@pytest.mark.parametrize("cell", ["1_0", "1__0", "0x5", "9 0", "٩٠", "５", "1e", "--5", "+-5",
                                  ".", "e5", "5.0.0", "5\u00a0", "\u20035", "five", ""])
def test_a_cell_that_is_no_plain_number_is_refused(tmp_path: Path, cell: str) -> None:
    params = tmp_path / "p.csv"
    params.write_text(f"angle,speed\n90,5\n90,{cell}\n", encoding="utf-8")
    with pytest.raises(BatchError, match=rf"parameter file '.*p\.csv', line 3, column 'speed': "
                                         rf"{re.escape(repr(cell))} is not a number"):
        read_params(str(params), "novus")


@pytest.mark.parametrize("text, line, why", [
    ('angle,speed\n90,"5"0\n', 2, "',' expected after '\"'"),
    ('angle,speed\n90,5\n"90,5\n', 3, "a quoted cell is never closed"),
    ('"angle,speed\n90,5\n', 1, "a quoted cell is never closed"),
])
def test_malformed_csv_is_refused(tmp_path: Path, text: str, line: int, why: str) -> None:
    params = tmp_path / "p.csv"
    params.write_text(text)
    with pytest.raises(BatchError, match=rf"cannot be read as CSV \(line {line}: {why}"):
        read_params(str(params), "novus")


@pytest.mark.parametrize("text, speeds", [
    ("angle,speed\n90,5\n90,6\n", [5.0, 6.0]),
    ("angle,speed\r\n90,5\r\n90,6\r\n", [5.0, 6.0]),  # Windows line ends
    ("\ufeffangle,speed\n90,5\n", [5.0]),  # a byte-order mark
    ("angle, speed\n90, 5\n 90 ,\t6\t\n", [5.0, 6.0]),  # blanks around cells and names
    ('angle,speed\n"90","5.5"\n', [5.5]),  # quoted cells
    ("angle,speed\n90,+5\n90,.5\n90,5.\n90,5e0\n90,50E-1\n90,0.5e+1\n",
     [5.0, 0.5, 5.0, 5.0, 5.0, 5.0]),
    ("angle,speed\n\n90,5\n\n", [5.0]),  # blank lines
])
def test_plain_numbers_still_read(tmp_path: Path, text: str, speeds: list[float]) -> None:
    params = tmp_path / "p.csv"
    params.write_bytes(text.encode("utf-8"))
    cols = read_params(str(params), "novus")
    assert cols["speed"].tolist() == speeds
    assert np.allclose(cols["angle"], math.radians(90))


def test_inf_and_nan_are_still_named_as_not_finite(tmp_path: Path) -> None:
    """inf and nan are numbers float() reads: the existing messages name them not finite."""
    params = tmp_path / "p.csv"
    params.write_text("angle,speed\n90,-Infinity\n")
    with pytest.raises(BatchError, match=r"line 2, column 'speed': '-Infinity' is not a finite"):
        read_params(str(params), "novus")


def test_a_valid_file_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    params = tmp_path / "p.csv"
    params.write_text("speed, angle\n 5 , 90\n4\t,\t89.5e0\n")
    out = tmp_path / "o.npz"
    code, err = _run(["novus", "--params", str(params), "--out", str(out), "--quiet",
                      "--workers", "1"], capsys)
    assert code == 0, err
    res = read_results(out)
    assert res["param.speed"].tolist() == [5.0, 4.0]
    assert np.degrees(res["param.angle"]).tolist() == pytest.approx([90.0, 89.5])
