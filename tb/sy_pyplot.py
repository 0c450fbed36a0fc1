"""matplotlib for the plot scripts, wherever `python3` on PATH comes from.

`from sy_pyplot import plt` gives matplotlib.pyplot on the Agg backend (files, no display). When
the interpreter running the script has no matplotlib (a pyenv or conda python3 first on PATH),
the script is run again by the first interpreter of the system's that has it (Debian's
/usr/bin/python3 with python3-matplotlib); when none has it, one line says how to get it and the
script exits 1.
"""
import os
import subprocess
import sys

_CANDIDATES = ("/usr/bin/python3", "/usr/local/bin/python3", "/bin/python3")
_GUARD = "SWITCHYARD_PLOT_REEXEC"

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: F401 (what the scripts import)
except ImportError:
    if not os.environ.get(_GUARD):
        # (The guard keeps it to one re-run; an interpreter started with -S or -I counts as
        # another one: run plainly it may have matplotlib.)
        for python in _CANDIDATES:
            if not os.path.exists(python):
                continue
            probe = subprocess.run([python, "-c", "import matplotlib"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if probe.returncode == 0:
                sys.stderr.write(f"{sys.argv[0]}: {sys.executable or 'python3'} has no "
                                 f"matplotlib: running it with {python}\n")
                sys.stderr.flush()
                os.environ[_GUARD] = "1"
                os.execv(python, [python] + sys.argv)
    sys.exit(f"{sys.argv[0]} needs matplotlib, which {sys.executable or 'python3'} does not "
             "have: apt-get install python3-matplotlib (or pip install matplotlib)")
