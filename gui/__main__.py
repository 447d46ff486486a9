"""``python -m gui`` launches the app."""

import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()  # first: spawn children of a frozen app re-enter here
    from gui.app import main

    sys.exit(main())
