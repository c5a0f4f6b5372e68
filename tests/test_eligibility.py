"""CitaLaw's sentence eligibility on GiNZA's parse: the terminology pool as whole words, legal entities."""

from __future__ import annotations

import pytest

from lexgraph.answer.eligibility import eligibility, legal_terms


@pytest.mark.parametrize(("sentence", "terms", "labels"), [
    # A clause cited (GiNZA: Law) and terms of the pool, compounds included (損害賠償 is one word to GiNZA).
    ("民法第709条によれば、故意又は過失によって他人の権利を侵害した者は損害賠償責任を負います。",
     {"故意", "過失", "権利", "損害賠償", "責任"}, {"Law"}),  # the citation is that entity: listed once
    # A law GiNZA does not know, found by lexgraph's extractor (a judgment of the bundled sample).
    ("よって，医療観察法７１条１項により，裁判官全員一致の意見で，主文のとおり決定する。", {"裁判官"},
     {"citation:statute"}),
    ("最高裁判所は原告の請求を棄却した。", {"最高裁判所", "原告", "請求"}, {"Public_Institution"}),
    ("賃貸人が正当な理由なく更新を拒絶することはできません。", {"更新"}, set()),
])
def test_a_sentence_stating_law_is_eligible_and_says_why(sentence: str, terms: set[str], labels: set[str]) -> None:
    (found,) = eligibility([sentence])
    assert found.eligible
    assert terms <= set(found.terms)
    assert {label for _, label in found.entities} == labels


@pytest.mark.parametrize("sentence", [
    "以上です。", "ご参考まで。",
    # The former rule (one kanji of 法|条|権…) took these: 方法, 条件 and 権威 are no legal terms.
    "具体的な方法については専門家にご相談ください。", "この条件で問題ありません。", "権威ある解説書を読みましょう。",
    "以下の問題文に対する回答を、選択肢a、b、c、dの中から１つ選んでください。",
])
def test_courtesy_and_words_that_only_contain_a_legal_kanji_are_not(sentence: str) -> None:
    (found,) = eligibility([sentence])
    assert not found.eligible, found.to_json()


def test_the_pool_holds_words_not_single_characters() -> None:
    pool = legal_terms()
    assert len(pool) > 150 and all(len(term) >= 2 for term in pool)
    assert {"損害賠償", "不法行為", "借地権", "時効"} <= pool
