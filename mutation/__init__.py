"""``make mutate``: how strong each lesson's check is, measured by cosmic-ray over the worked answers.

Each ``solutions/lessonNN.py`` marks the lines a student writes between
``# student writes: begin`` and ``# student writes: end``. Every mutant of a
marked line (cosmic-ray's own operators and the ones in
``mutation/operators.py``) is written to a temporary folder and judged by
``COURSE_TARGET=<mutant> course check N``: a check that fails kills it.
``solutions/equivalent_mutants.toml`` lists the mutants no input the contract
allows tells apart, each with its reason; ``python -m mutation`` prints the
table (``mutation/run.py``).
"""
