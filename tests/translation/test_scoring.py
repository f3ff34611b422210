from __future__ import annotations

import sacrebleu

from atlas_assets.translation.schema import Corpus, validate_data
from atlas_assets.translation.scoring import corpus_scores, segments, sentence_chrfpp

HYPS = ["The cat sat on the mat.", "It is raining heavily today", "Hello world"]
REFS = ["The cat was sitting on the mat.", "Today it rains a lot.", "Hello, world!"]
ALT = ["A cat sat on the mat.", "It is raining heavily today.", "Hi world"]


def test_scores_equal_sacrebleus_own_output():
    scores = corpus_scores(HYPS, [[r] for r in REFS], "en")
    assert scores["chrf++"]["score"] == round(sacrebleu.corpus_chrf(HYPS, [REFS], word_order=2).score, 4)
    assert scores["chrf"]["score"] == round(sacrebleu.corpus_chrf(HYPS, [REFS]).score, 4)
    assert scores["bleu"]["score"] == round(sacrebleu.corpus_bleu(HYPS, [REFS]).score, 4)
    assert scores["chrf++"]["signature"].startswith("nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:")
    assert "tok:13a" in scores["bleu"]["signature"]
    assert sentence_chrfpp(HYPS[0], [REFS[0]]) == round(sacrebleu.sentence_chrf(HYPS[0], [REFS[0]], word_order=2).score, 4)


def test_multi_reference_equals_sacrebleu_and_never_lowers_a_score():
    multi = corpus_scores(HYPS, [[r, a] for r, a in zip(REFS, ALT)], "en")
    assert multi["chrf++"]["score"] == round(sacrebleu.corpus_chrf(HYPS, [REFS, ALT], word_order=2).score, 4)
    assert multi["bleu"]["score"] == round(sacrebleu.corpus_bleu(HYPS, [REFS, ALT]).score, 4)
    single = corpus_scores(HYPS, [[r] for r in REFS], "en")
    assert multi["bleu"]["score"] > single["bleu"]["score"]
    assert sentence_chrfpp(HYPS[1], [REFS[1], ALT[1]]) > sentence_chrfpp(HYPS[1], [REFS[1]])


def test_variable_reference_counts_pad_with_none():
    scores = corpus_scores(HYPS, [[REFS[0], ALT[0]], [REFS[1]], [REFS[2]]], "en")
    assert scores["chrf++"]["score"] == round(sacrebleu.corpus_chrf(HYPS, [REFS, [ALT[0], None, None]], word_order=2).score, 4)
    assert "nrefs:var" in scores["chrf++"]["signature"]


def test_variant_class_entries_form_one_segment(example_doc):
    corpus: Corpus = validate_data(example_doc).corpus
    segs = segments(corpus)
    hello = next(s for s in segs if s.variant_class == "hello")
    assert hello.entry_ids == (1, 2) and hello.references == ("Bonjour", "Salut")
    assert len(segs) == len(corpus.entries) - 3
    # either accepted variant scores 100
    assert sentence_chrfpp("Salut", hello.references) == sentence_chrfpp("Bonjour", hello.references) == 100.0


def test_bleu_tokenizer_follows_the_target_language():
    assert "tok:zh" in corpus_scores(["我爱你"], [["我爱你"]], "zh-Hans")["bleu"]["signature"]
    assert "tok:char" in corpus_scores(["ありがとう"], [["ありがとう"]], "ja")["bleu"]["signature"]
