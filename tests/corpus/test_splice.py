"""The splice detector (scorer `splice`, eval-longgen-integrity-v1)."""

from __future__ import annotations

import random

import pytest

from atlas_assets.corpus.splice.detection import find_splices
from atlas_assets.corpus.splice.injection import inject_splice
from atlas_assets.corpus.splice.tokens import js_tokens

CONTEXT = ["formatCurrency", "parseInvoiceDate", "loadCustomerRecords", "TAX_RATE", "InvoiceStore", "computeLineTotal"]

MODULE = """\
// report.js: builds a monthly summary. (comment words: formatDate parseCurrency)
import { formatCurrency, parseInvoiceDate as parseDate } from './format.js';
import { loadCustomerRecords, TAX_RATE } from './data.js';
import InvoiceStore from './store.js';

const HEADER = `Monthly report for ${new Date().getFullYear()} - totals ${formatCurrency(0)}`;
const pattern = /invoiceNumberPattern[0-9]+/gi;

export class MonthlyReport {
  constructor(store = new InvoiceStore()) {
    this.store = store;
    this.cache = new Map();
  }

  summarise(month, { includeTax = true } = {}) {
    const records = loadCustomerRecords().filter((r) => parseDate(r.date).getMonth() === month);
    let runningTotal = 0;
    for (const record of records) {
      const lineTotal = record.items.reduce((sum, item) => sum + item.price * item.quantity, 0);
      runningTotal += includeTax ? lineTotal * (1 + TAX_RATE) : lineTotal;
    }
    this.cache.set(month, runningTotal);
    return { header: HEADER, month, total: formatCurrency(runningTotal), count: records.length, ok: pattern.test('x') };
  }
}

export function describeReport(report) {
  return "report of " + report.count + " customers, 1500ms budget";
}
"""


def test_a_clean_module_is_clean():
    assert find_splices(MODULE, CONTEXT) == []


def test_strings_comments_regexes_and_template_text_are_skipped():
    texts = {t.text for t in js_tokens(MODULE)}
    assert "parseCurrency" not in texts and "invoiceNumberPattern" not in texts and "budget" not in texts
    assert "Monthly" not in texts and "getFullYear" in texts  # template text skipped, ${...} kept


def test_identifier_welded_from_two_fragments_is_found():
    spliced = MODULE.replace("total: formatCurrency(runningTotal)", "total: formatCurrInvoiceDate(runningTotal)")
    found = find_splices(spliced, CONTEXT)
    assert [(s.kind, s.token) for s in found] == [("identifier", "formatCurrInvoiceDate")]
    assert found[0].line == spliced[: spliced.index("formatCurrInvoiceDate")].count("\n") + 1
    assert "formatCurrInvoiceDate" in found[0].describe()


def test_number_welded_to_a_word_is_found():
    spliced = MODULE.replace("runningTotal = 0;", "runningTotal = 0Total;")
    assert [(s.kind, s.token) for s in find_splices(spliced, CONTEXT)] == [("number", "0Total")]


def test_new_declared_or_repeated_names_are_not_splices():
    code = (
        "import { formatCurrency } from './f.js';\n"
        "export function formatInvoiceTotals(rows) {\n"
        "  const currTotals = rows.map((row) => formatCurrency(row.total));\n"
        "  return currTotals;\n"
        "}\n"
    )
    assert find_splices(code, CONTEXT + ["invoiceTotals"]) == []


def test_inject_splice_is_detected_and_deterministic():
    a = inject_splice(MODULE, CONTEXT, random.Random(3))
    b = inject_splice(MODULE, CONTEXT, random.Random(3))
    assert a == b and a != MODULE
    assert find_splices(a, CONTEXT)
    for seed in range(20):
        assert find_splices(inject_splice(MODULE, CONTEXT, random.Random(seed)), CONTEXT), seed


def test_inject_needs_material():
    with pytest.raises(ValueError):
        inject_splice("x = 1;", [], random.Random(0))
