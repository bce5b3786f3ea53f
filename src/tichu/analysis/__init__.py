"""Game analysis: every decision of a game judged by the expert's search, as chess sites do.

:func:`decision_points` takes a record's decisions as the deciding seats saw them (R8),
:func:`judge` weighs each one's options by the expert's rollouts on deals drawn from that
seat's knowledge, and :func:`analysis_document` turns the judgements into the JSON document
the server stores and the replay viewer shows (:func:`analyse_record` does all three).
docs/agents.md, "Game analysis", describes the method and its thresholds.

Layering: this package uses the rules core, the engine's views, the agents and the records;
the server and ``bin/`` use it, never the other way round.
"""

from tichu.analysis.document import FORMAT, Method, analyse_record, analysis_document
from tichu.analysis.judge import DEFAULT_SAMPLES, THRESHOLDS, Judgement, Z, judge, label_of
from tichu.analysis.points import KINDS, DecisionPoint, Option, RecordFault, decision_points

__all__ = ["DEFAULT_SAMPLES", "FORMAT", "KINDS", "THRESHOLDS", "Z", "DecisionPoint", "Judgement", "Method",
           "Option", "RecordFault", "analyse_record", "analysis_document", "decision_points", "judge", "label_of"]
