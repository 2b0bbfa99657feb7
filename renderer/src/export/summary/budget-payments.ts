// Beneath the monthly cash flow: its rule, and the payments entered with liabilities, insurance,
// plans and annuities set beside their line of the fixed expenses with each difference named
// (shared/budget-payments.ts), as the overview shows them. A payments section not on this computer
// is named; without the fixed expenses here nothing is compared.

import type { Content } from 'pdfmake/interfaces';
import {
  BUDGET_RULE,
  budgetLineLabel,
  budgetShown,
  differenceWords,
  paymentLabel,
  paymentSectionsIn,
  paymentsBesideBudget,
  type BudgetCheck,
} from '@shared/budget-payments.ts';
import { listed } from '../../household/coverage.ts';
import { amountAsStored } from '../../household/values.ts';
import { amount, isMissing, signedAmount, type SummaryContext } from './context.ts';
import { sentence, subheading, table } from './layout.ts';

/** `net`: the net monthly cash flow in cents, null when it is not known here. */
export function budgetPaymentsPart(ctx: SummaryContext, net: number | null): Content[] {
  const items = ctx.items.map((i) => ({ section: i.section, fields: i.fields }));
  const beside = paymentsBesideBudget(ctx.singles['expenses-fixed']?.fields ?? {}, items);
  const out: Content[] = [sentence(BUDGET_RULE)];
  const money = (cents: number) => amount(ctx, cents);
  if (beside.checks.length && isMissing(ctx, 'expenses-fixed'))
    out.push(sentence('The fixed expenses are not on this computer yet: the payments are not compared.'));
  else if (beside.checks.length) {
    out.push(
      subheading('Payments entered with the items, beside the budget'),
      table<BudgetCheck>(
        [
          { label: 'Per month', width: 90, cell: (c) => budgetLineLabel(c.line) },
          { label: 'Items', cell: (c) => c.payments.map(paymentLabel).join(', ') },
          {
            label: 'Budget',
            width: 70,
            amount: true,
            cell: (c) => budgetShown(c, money),
          },
          { label: 'With the items', width: 70, amount: true, cell: (c) => money(c.paid) },
          { label: 'Difference', width: 110, cell: (c) => differenceWords(c, money) },
        ],
        beside.checks,
      ),
    );
    if (beside.notInBudget > 0)
      out.push(
        sentence(
          `${money(beside.notInBudget)} a month of these payments is not in the budget` +
            (net === null
              ? '.'
              : `: paid on top of it, the net would be ${signedAmount(ctx, net - beside.notInBudget)}.`),
        ),
      );
  }
  if (beside.notMonthly.length)
    out.push(
      sentence(
        `Payments that are no monthly amount, not compared: ${beside.notMonthly
          .map((p) => `${paymentLabel(p)} ${amountAsStored(p, ctx.currency)}`)
          .join('; ')}.`,
      ),
    );
  const missing = paymentSectionsIn(ctx.missing);
  if (missing.length)
    out.push(sentence(`Payments of ${listed(missing)}: not downloaded yet, so not compared.`));
  return out;
}
