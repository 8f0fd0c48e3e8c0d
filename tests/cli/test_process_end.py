"""A whole `casebook` process skips the last garbage collection of what its command built (a tenth of a build's
CPU at the interpreter's shutdown); a caller that runs main() inside its own process keeps its collector."""

from __future__ import annotations

import gc
import subprocess
import sys

from casebook.cli import main

AS_A_PROCESS = (
    "import gc, sys\n"
    "from casebook.cli import main\n"
    "sys.argv = ['casebook', 'rules', 'graves', 'how many players']\n"
    "code = main()\n"
    "print('ENDED', code, gc.isenabled(), gc.get_freeze_count() > 0)\n"
)


def test_the_process_entry_freezes_what_the_command_built_and_still_answers():
    proc = subprocess.run([sys.executable, "-c", AS_A_PROCESS], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "ENDED 0 False True" in proc.stdout
    assert "player" in proc.stdout.lower()  # the answer was printed (and flushed) before the end


def test_main_called_with_arguments_leaves_the_callers_collector_alone(capsys):
    assert gc.isenabled()
    assert main(["rules", "graves", "how many players"]) == 0
    assert "player" in capsys.readouterr().out.lower()
    assert gc.isenabled()
