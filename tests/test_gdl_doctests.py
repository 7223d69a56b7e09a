"""The examples in the docstrings of the GDL modules."""

import doctest

import pytest

from gamecheck.gdl import checks, parser, reasoner


@pytest.mark.parametrize("module", [parser, checks, reasoner])
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
