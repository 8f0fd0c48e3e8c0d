import sys

from casebook.cli import main

sys.exit(main())
