from decimal import Decimal

import pytest

from ledgerline import Invoice


def make_readme_invoice():
    inv = Invoice(currency="EUR", vat_rate=Decimal("0.20"))
    inv.add_line("Support plan (monthly)", quantity=1, unit_price="49.00")
    inv.add_line("Extra seats", quantity=3, unit_price="12.50", discount_rate="0.10")
    return inv


def test_readme_example():
    inv = make_readme_invoice()
    assert inv.subtotal() == Decimal("82.75")
    assert inv.vat() == Decimal("16.55")
    assert inv.total() == Decimal("99.30")


def test_line_total_is_rounded_to_cents():
    inv = Invoice(currency="EUR")
    line = inv.add_line("Widgets", quantity=7, unit_price="0.333")
    assert line.total() == Decimal("2.33")


def test_empty_invoice():
    inv = Invoice(currency="EUR", vat_rate=Decimal("0.2"))
    assert inv.total() == Decimal("0.00")
    assert inv.instalments(3) == [Decimal("0.00")] * 3


def test_discount_rate_must_be_a_fraction():
    inv = Invoice(currency="EUR")
    with pytest.raises(ValueError):
        inv.add_line("Oops", quantity=1, unit_price="10", discount_rate="15")


def test_instalments_add_up():
    inv = make_readme_invoice()
    parts = inv.instalments(4)
    assert parts == [Decimal("24.83"), Decimal("24.83"), Decimal("24.82"), Decimal("24.82")]
    assert sum(parts) == inv.total()


def test_credit_note():
    inv = Invoice(currency="EUR", vat_rate=Decimal("0.20"))
    inv.add_line("Refund: extra seats", quantity=-2, unit_price="12.50")
    assert inv.subtotal() == Decimal("-25.00")
    assert inv.vat() == Decimal("-5.00")
    assert inv.total() == Decimal("-30.00")
    assert inv.instalments(3) == [Decimal("-10.00")] * 3


def test_instalments_needs_a_positive_count():
    with pytest.raises(ValueError):
        make_readme_invoice().instalments(0)
