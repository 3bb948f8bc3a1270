"""The audit's path takes a few stdlib classes without importing their public modules (collections, types: ~8M
instructions together); each alias is the stdlib's own class."""
from __future__ import annotations

import collections
import collections.abc
import types

import collectors.evidence
import collectors.lifeos.layout
import collectors.lifeos.reviewer
import collectors.metric
import cortex.review.transcript
import health.quickargs
import reports.document
import reports.report
import reports.vocabulary


def test_each_alias_is_the_stdlib_class():
    for module in (collectors.lifeos.layout, reports.vocabulary, reports.report, reports.document):
        assert module.MappingProxyType is types.MappingProxyType
    assert health.quickargs.SimpleNamespace is types.SimpleNamespace
    assert collectors.lifeos.reviewer.deque is cortex.review.transcript.deque is collections.deque
    assert collectors.evidence.Mapping is collectors.metric.Mapping is collections.abc.Mapping
