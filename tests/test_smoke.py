from guardrail import Guard


def test_clean_answer_passes():
    guard = Guard.from_dict({"citations": {}})
    verdict = guard.check("Leave is 25 days [doc:a].", [{"id": "a", "text": "25 days"}], [])
    assert verdict.decision.value == "pass"
