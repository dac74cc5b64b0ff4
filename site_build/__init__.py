"""The docs site's pre-build: pictures drawn from the code's data, source pages, links, notebook pages.

``python -m site_build.build build-pages`` writes every page to build/site-src/
with build/mkdocs.yml, which any builder reads; ``site_build/hook.py`` does the
same from the root's mkdocs.yml. It is not part of the student's tool (course/).
"""
