"""The optional compiled fast paths (guardrail/_speedups.c): built when a C compiler is present; without one the
install goes on and guardrail uses its pure-Python code (the same results, slower). Everything else is in
pyproject.toml."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("guardrail._speedups", ["guardrail/_speedups.c"], optional=True,
                             extra_compile_args=["-O2"])])
