"""`python -m course ...` is the same command as `course ...`."""

from course.entry import main

main()
