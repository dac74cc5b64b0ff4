"""`python -m course ...` is the same command as `course ...`."""

from course.cli import main

main()
