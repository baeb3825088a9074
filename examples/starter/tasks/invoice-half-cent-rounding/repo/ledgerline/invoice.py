"""Invoices: lines, discounts, VAT and instalment plans."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from .money import CENT, Number, round_money, to_decimal


@dataclass(frozen=True)
class InvoiceLine:
    description: str
    quantity: Decimal
    unit_price: Decimal
    discount_rate: Decimal = Decimal("0")

    def total(self) -> Decimal:
        """Quantity × unit price minus the discount, rounded to cents."""
        gross = self.quantity * self.unit_price
        return round_money(gross * (1 - self.discount_rate))


@dataclass
class Invoice:
    currency: str
    vat_rate: Decimal = Decimal("0")
    lines: list[InvoiceLine] = field(default_factory=list)

    def add_line(
        self,
        description: str,
        quantity: Number,
        unit_price: Number,
        discount_rate: Number = "0",
    ) -> InvoiceLine:
        rate = to_decimal(discount_rate)
        if not Decimal("0") <= rate <= Decimal("1"):
            raise ValueError(f"discount_rate must be between 0 and 1, got {rate}")
        line = InvoiceLine(description, to_decimal(quantity), to_decimal(unit_price), rate)
        self.lines.append(line)
        return line

    def subtotal(self) -> Decimal:
        return sum((line.total() for line in self.lines), Decimal("0.00"))

    def vat(self) -> Decimal:
        return round_money(self.subtotal() * to_decimal(self.vat_rate))

    def total(self) -> Decimal:
        return self.subtotal() + self.vat()

    def instalments(self, count: int) -> list[Decimal]:
        """Splits the total into ``count`` payments that add up exactly to the total.
        Leftover cents go to the first payments."""
        if count < 1:
            raise ValueError("count must be at least 1")
        total_cents = int((self.total() / CENT).to_integral_value())
        sign = -1 if total_cents < 0 else 1
        base, extra = divmod(abs(total_cents), count)
        cents = [base + 1 if i < extra else base for i in range(count)]
        return [(sign * c * CENT).quantize(CENT) for c in cents]
