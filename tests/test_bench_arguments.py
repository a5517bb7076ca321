"""The bench scripts' doors: an output file that cannot be written, or a count that makes no
run, is refused as the arguments are read (exit 2, one message naming the option), before
minutes of measuring whose figures it would then lose, and never as a traceback."""

from __future__ import annotations

import importlib

import pytest

from cuesim.commands import output_file, whole_number

# every bench script that writes --json: its module and the extra arguments a run needs
JSON_WRITERS = ("agreement", "ai_levels", "batch", "breaks", "broadphase", "computer_turn",
                "env_steps", "novus_opening", "pins", "tunnels")

# counts that make no run (or a division by zero at its end)
BAD_COUNTS = (
    ("agreement", ["--steps", "0"], "--steps"),
    ("agreement", ["--sliding", "-1"], "--sliding"),
    ("ai_levels", ["--games", "0"], "--games"),
    ("ai_levels", ["--jobs", "0"], "--jobs"),
    ("ai_levels", ["--straight", "-1"], "--straight"),
    ("ai_levels", ["--breaks", "-5"], "--breaks"),
    ("ai_levels", ["--frames-turns", "-1"], "--frames-turns"),
    ("batch", ["--repeats", "0"], "--repeats"),
    ("batch", ["--novus-shots", "-3"], "--novus-shots"),
    ("batch", ["--memory-shots", "50"], "--memory-shots"),
    ("computer_turn", ["--turns", "0"], "--turns"),
    ("env_steps", ["--level", "0"], "--level"),
    ("pins", ["--shots", "0"], "--shots"),
    ("tunnels", ["--shots", "0"], "--shots"),
    ("tunnels", ["--workers", "0"], "--workers"),
    ("viewer_frames", ["--frames", "0"], "--frames"),
)


def _refused(module: str, argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    main = importlib.import_module(f"bench.{module}").main
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err.strip().splitlines()[-1]


@pytest.mark.parametrize("module", JSON_WRITERS)
def test_an_unwritable_json_is_refused_before_the_run(module, tmp_path, capsys) -> None:
    """--json into a folder that does not exist: refused at once, naming the option and the
    folder (before, most of these ran for minutes and then died writing it)."""
    target = tmp_path / "missing" / "out.json"
    line = _refused(module, ["--json", str(target)], capsys)
    assert "argument --json" in line and "does not exist" in line and "missing" in line
    assert not target.parent.exists()


@pytest.mark.parametrize(("module", "argv", "option"), BAD_COUNTS)
def test_a_count_that_makes_no_run_is_refused(module, argv, option, capsys) -> None:
    line = _refused(module, argv, capsys)
    assert option in line


def test_the_suite_script_checks_as_cuesim_bench_does(tmp_path, capsys) -> None:
    """`python bench/suite.py` is `cuesim bench`: its --json is checked before measuring."""
    from bench import suite

    assert suite.main(["--json", str(tmp_path / "missing" / "out.json")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_a_plot_folder_that_cannot_be_made_is_refused(capsys) -> None:
    """broadphase.py makes --plot's folder at the end; one it could not make is refused first."""
    line = _refused("broadphase", ["--plot", "/proc/no-such-folder/plot.png"], capsys)
    assert "--plot" in line


def test_the_argument_types() -> None:
    import argparse

    assert whole_number("0") == 0 and whole_number("7") == 7
    for bad in ("-1", "x", "1.5"):
        with pytest.raises(argparse.ArgumentTypeError):
            whole_number(bad)
    with pytest.raises(argparse.ArgumentTypeError, match="does not exist"):
        output_file("/proc/no-such-folder/out.json")
