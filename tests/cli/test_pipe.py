"""A reader that leaves early (`casebook rules all tie | head -1`) ends the command quietly."""

from __future__ import annotations

import subprocess
import sys


def test_a_closed_pipe_ends_the_command_without_a_traceback():
    proc = subprocess.Popen([sys.executable, "-m", "casebook", "rules", "all", "tie"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before anything is written
    err = proc.stderr.read().decode()
    proc.wait(timeout=120)
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
    assert proc.returncode == 1
