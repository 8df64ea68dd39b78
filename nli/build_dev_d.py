#!/usr/bin/env python3
"""Build nli/dev_d.jsonl: a hand-labelled NLI development set (fictional bank and insurer).

Domain: "Marlow & Finch Bank" and its insurance arm (product terms, policy wordings,
compliance manuals, IT and HR policies). Everything below was written by hand; this
script only numbers the pairs, joins passages, applies perturbation flips and builds
order variants. No randomness, no network: running it twice gives identical output.

    python nli/build_dev_d.py            # write nli/dev_d.jsonl
    python nli/build_dev_d.py --check    # validate the written file
    python nli/build_dev_d.py --stats    # counts per slice and label

Labels: E = entailment, N = neutral, C = contradiction. Conventions follow
nli/README.md, "How the labels were decided".
"""

import sys
from pathlib import Path

import _devset  # the builders' shared writing, checks and command line (nli/_devset.py)

OUT = Path(__file__).with_name("dev_d.jsonl")
LABELS = {"E": "entailment", "N": "neutral", "C": "contradiction"}

# Each slice is a list of (premise, [(hypothesis, label), ...]).
# In MULTI the premise is a pair of passages, joined with one blank line.

NUMERIC = [
    (
        "Foreign transaction fees\n"
        "When you use your Marlow & Finch Classic debit card abroad, we charge a non-sterling "
        "transaction fee of 2.75% of the value of each transaction. Cash withdrawals abroad also "
        "carry a fee of £1.50 per withdrawal. Premier account holders pay neither fee.",
        [
            ("On a £400 card payment abroad with the Classic debit card, the non-sterling transaction fee comes to £11.", "E"),
            ("The Classic debit card's non-sterling transaction fee is 2.5% of the transaction.", "C"),
            ("Premier account holders can also use cash machines in the UK free of charge.", "N"),
        ],
    ),
    (
        "Credit card annual fees (from 1 March 2026)\n"
        "Classic: no fee | Gold: £150 a year | Platinum: £450 a year\n"
        "Additional cardholders: Gold £25 each | Platinum free (up to 4 additional cards)",
        [
            ("The Platinum card costs £300 a year more than the Gold card.", "E"),
            ("With Platinum you can add as many as four extra cardholders at no charge.", "E"),
            ("Each additional cardholder on a Gold card costs £50 a year.", "C"),
        ],
    ),
    (
        "Arranged overdraft\n"
        "The interest rate on arranged overdrafts is 39.9% EAR (variable). If you hold a Plus current "
        "account, there is no interest on the first £250 of your arranged overdraft. We will never "
        "charge you more than £20 in overdraft interest in any monthly billing period.",
        [
            ("Plus account holders get an interest-free buffer of £250 on their arranged overdraft.", "E"),
            ("However much you're overdrawn, your overdraft interest in a monthly billing period is capped at twenty pounds.", "E"),
            ("You'll pay no more than £25 a month in overdraft interest.", "C"),
            ("Standard current account holders receive a £100 interest-free overdraft buffer.", "N"),
        ],
    ),
    (
        "Easy Saver Plus — key facts\n"
        "• AER: 4.10% variable on balances up to £25,000; 2.50% on the part of your balance above £25,000\n"
        "• Interest is calculated daily and paid monthly\n"
        "• Up to three withdrawals in each calendar year without losing interest; on the fourth and any "
        "later withdrawal the rate falls to 1.00% AER for the rest of that year",
        [
            ("If you hold £40,000, the £15,000 above the £25,000 threshold earns 2.50% AER.", "E"),
            ("Your rate drops to 1.00% AER after your second withdrawal in a calendar year.", "C"),
            ("Money you withdraw from Easy Saver Plus reaches your current account instantly.", "N"),
            ("The 4.10% rate is guaranteed until the end of 2026.", "C"),
        ],
    ),
    (
        "7.2 Early repayment charges. If you repay all or part of your fixed-rate mortgage before the end "
        "of the fixed period, an early repayment charge (ERC) applies: 5% of the amount repaid in year 1, "
        "4% in year 2, 3% in year 3, 2% in year 4 and 1% in year 5.\n"
        "7.3 You may overpay up to 10% of the outstanding balance in each year of the fixed period "
        "without paying an ERC.",
        [
            ("Paying off £50,000 early in the third year of your fix would cost an early repayment charge of £1,500.", "E"),
            ("Each year of the fixed period, overpayments of up to a tenth of what you owe are free of early repayment charges.", "E"),
            ("In the second year of the fixed period, the ERC is 3% of the amount repaid.", "C"),
            ("Once your fixed period has ended, you can repay the whole mortgage without any charge.", "N"),
        ],
    ),
    (
        "Section B – Medical emergency expenses\n"
        "We will pay up to £10 million for emergency medical treatment abroad. The excess is £100 per "
        "person per claim under Essentials, or £50 under Comprehensive. Dental treatment for the relief "
        "of sudden pain is covered up to £300.",
        [
            ("A family of three on Essentials making one medical claim together would pay £300 in excesses.", "E"),
            ("The Comprehensive medical excess is half the Essentials one.", "E"),
            ("Emergency dental treatment to relieve sudden pain is covered up to £500.", "C"),
            ("Routine dental check-ups abroad are covered up to £300.", "N"),
        ],
    ),
    (
        "Your excesses\n"
        "- Compulsory excess: £250\n"
        "- Voluntary excess (chosen by you): £150\n"
        "- Young driver excess (drivers under 25): an additional £300\n"
        "- Windscreen replacement: £95; windscreen repair: £0\n"
        "The total excess is the sum of all excesses that apply.",
        [
            ("If a 22-year-old driver on your policy has an accident, the total excess on the claim is £700.", "E"),
            ("The compulsory excess on your policy is £150.", "C"),
            ("The young driver excess applies to anyone driving who is under 30.", "C"),
        ],
    ),
    (
        "Contents cover limits\n"
        "Buildings cover limit: £500,000. Contents cover limit: £75,000. Single item limit: £2,000 – "
        "any item worth more must be listed individually on your schedule. Valuables (jewellery, "
        "watches, art) in total: no more than £15,000 unless specified.",
        [
            ("A £3,500 watch has to be listed individually on your schedule.", "E"),
            ("Any single item worth up to £2,500 is covered without being listed.", "C"),
            ("A £4,000 painting is covered in full once it is listed on your schedule.", "N"),
        ],
    ),
    (
        "Q: How long does an international payment take, and what does it cost?\n"
        "A: Payments in euros to SEPA countries usually arrive within 1 business day. Payments in US "
        "dollars take 2–4 business days. We charge £5 for each international payment made online and "
        "£15 for one made in branch.",
        [
            ("Sending an international payment in branch costs three times as much as sending it online.", "E"),
            ("Payments in Canadian dollars take 2–4 business days.", "N"),
            ("Euro payments to SEPA countries usually take three business days.", "C"),
        ],
    ),
    (
        "Your right to cancel\n"
        "You have 14 days from the day you receive your policy documents to cancel this policy. If you "
        "cancel within this period and have not made a claim, we will refund your premium in full. After "
        "this period you may cancel at any time; we will refund the premium for the unused period minus "
        "an administration fee of £30.",
        [
            ("You have a two-week window after getting your documents to cancel.", "E"),
            ("If you cancel later than that, we keep £30 as an admin fee and refund the rest of the premium for the unused period.", "E"),
            ("If you cancel within the 14 days after having made a claim, you'll still get a full refund.", "N"),
        ],
    ),
    (
        "Credit approval limits (Retail Lending Manual, section 4)\n"
        "Personal loans up to £25,000: Lending Officer.\n"
        "£25,001–£50,000: Senior Credit Manager.\n"
        "Above £50,000: Credit Committee.\n"
        "All limits apply to the customer's total exposure, including existing borrowing with us.",
        [
            ("A customer who already owes us £20,000 and applies for another £10,000 needs a Senior Credit Manager to approve it.", "E"),
            ("A Lending Officer can approve personal loans of up to £30,000.", "C"),
        ],
    ),
    (
        "IT-SEC-04 Passwords\n"
        "Passwords for staff accounts must be at least 14 characters long and are changed only when "
        "compromise is suspected. Service account passwords must be at least 24 characters and rotated "
        "every 90 days. After 5 failed attempts the account is locked for 30 minutes.",
        [
            ("Get your password wrong five times and you'll be locked out for half an hour.", "E"),
            ("Staff account passwords need a minimum of 12 characters.", "C"),
            ("Staff must change their passwords every 90 days.", "C"),
        ],
    ),
    (
        "Annual leave\n"
        "Full-time employees receive 25 days' annual leave plus bank holidays. You gain one extra day for "
        "each complete year of service, up to a maximum of 30 days. Up to 5 unused days can be carried "
        "over to the next leave year.",
        [
            ("After three full years of service, a full-time employee has 28 days' annual leave plus bank holidays.", "E"),
            ("However long you've worked here, your annual leave won't go above 30 days plus bank holidays.", "E"),
            ("Part-time employees receive 25 days' annual leave.", "N"),
        ],
    ),
    (
        "Fees for this mortgage: product fee £999 (can be added to the loan). Valuation fee: paid by us "
        "for loans up to 80% loan-to-value.",
        [
            ("There's a product fee of nine hundred and ninety-nine pounds, which you can add to your mortgage.", "E"),
            ("The bank pays the valuation fee for loans up to 90% LTV.", "C"),
            ("At 85% loan-to-value you'll have to pay the valuation fee yourself.", "N"),
        ],
    ),
    (
        "Gifts and hospitality register\n"
        "All gifts and hospitality received with a value above £50 must be recorded in the register "
        "within 5 business days. Gifts above £250 require prior approval from your line manager and "
        "Compliance. Cash or cash equivalents of any value must be declined.",
        [
            ("Before accepting a £300 gift you need the go-ahead from both your line manager and Compliance.", "E"),
            ("For gifts above £250, your line manager's approval on its own is enough.", "C"),
            ("Hospitality worth £40 must be entered in the register within 5 business days.", "N"),
        ],
    ),
    (
        "Card fees — Gold credit card\n"
        "Late payment fee: £12. Over-limit fee: none. Cash advance fee: 3% of the amount, minimum £3. "
        "Purchase rate: 24.9% APR representative (variable).",
        [
            ("Taking a £50 cash advance on the Gold card costs a £3 fee.", "E"),
            ("A £200 cash advance on the Gold card costs £6 in fees.", "E"),
            ("The Gold card has a representative APR of 24.9% on purchases, fixed for the first year.", "C"),
        ],
    ),
]

DATES = [
    (
        "Complaint handling (Compliance Manual 9.4)\n"
        "We must send a final response to a complaint within 8 weeks of receiving it. For complaints "
        "about payment services, the deadline is 15 business days, which may be extended to 35 business "
        "days in exceptional circumstances if we write to the customer explaining the delay.",
        [
            ("A payment services complaint should normally get a final response within three working weeks.", "E"),
            ("In exceptional cases the payment services deadline can stretch to seven working weeks, as long as the customer is told why in writing.", "E"),
            ("The deadline for a final response to a general complaint is six weeks.", "C"),
        ],
    ),
    (
        "Trading windows\n"
        "Employees on the insider list may deal in Marlow & Finch Group shares only during an open window. "
        "Each window opens on the second business day after the publication of the quarterly results and "
        "closes at the end of the 30th calendar day after publication. Q1 2026 results will be published "
        "on Tuesday 28 April 2026.",
        [
            ("The window after the Q1 2026 results opens on Thursday 30 April 2026 and closes at the end of Thursday 28 May 2026.", "E"),
            ("Insider-list employees can buy Group shares at any time as long as Compliance pre-clears the trade.", "C"),
            ("Monday 11 May 2026 falls within the trading window that follows the Q1 2026 results.", "E"),
            ("Employees who are not on the insider list can deal in Group shares at any time.", "N"),
        ],
    ),
    (
        "How to claim\n"
        "You must tell us about any claim as soon as possible and in any case within 31 days of returning "
        "home. Theft must be reported to the local police within 24 hours of discovery, and you must "
        "obtain a written police report.",
        [
            ("If you get back from holiday on 10 August 2026, you have until 10 September 2026 to tell us about a claim.", "E"),
            ("Claims notified more than 31 days after you return will be rejected.", "N"),
        ],
    ),
    (
        "Changes to your savings rate\n"
        "If we reduce the interest rate on your account, we will give you at least 14 days' notice by email "
        "or letter, except where the change follows a cut in the Bank of England base rate. In that case "
        "the change takes effect within 30 days of the base rate change, and we will tell you within 3 "
        "business days of making it.",
        [
            ("If the base rate is cut on Thursday 5 November 2026, the resulting change to your rate takes effect by Saturday 5 December 2026.", "E"),
            ("We'll always give you at least 30 days' notice before reducing your savings rate.", "C"),
            ("Rate increases are notified at least 14 days in advance.", "N"),
        ],
    ),
    (
        "Business account fees are charged quarterly in arrears, on the first business day of January, "
        "April, July and October. The fee taken in April covers January to March.",
        [
            ("The fee taken in July 2026 covers the second quarter of 2026.", "E"),
            ("The fee for the third quarter of 2026 is taken on Thursday 1 October 2026.", "E"),
            ("Business account fees are charged quarterly in advance.", "C"),
            ("Business account fees are waived for the first 12 months after opening.", "N"),
        ],
    ),
    (
        "Periodic review frequency (AML Manual 5.2)\n"
        "• High-risk customers: every 12 months\n"
        "• Medium-risk customers: every 3 years\n"
        "• Low-risk customers: every 5 years\n"
        "The next review is due on the anniversary of the last completed review.",
        [
            ("A medium-risk customer last reviewed on 15 October 2026 is next due on 15 October 2029.", "E"),
            ("A medium-risk customer whose circumstances change must be reviewed straight away.", "N"),
            ("A low-risk customer whose last review was completed on 1 June 2026 is due again on 1 June 2030.", "C"),
        ],
    ),
    (
        "Mortgage offer — important dates\n"
        "Offer date: 14 August 2026.\n"
        "This offer is valid for 6 months from the offer date. If you have not completed by then, you will "
        "need to reapply.",
        [
            ("The offer runs out on 14 February 2027.", "E"),
            ("You have to complete by the end of 2026 or reapply.", "C"),
            ("The offer can be extended once by up to three months.", "N"),
        ],
    ),
    (
        "Pay dates\n"
        "Salary is paid on the last business day of each month. If that day is a bank holiday, salary is "
        "paid on the preceding business day. Expenses submitted and approved by the 15th of the month are "
        "paid with that month's salary.",
        [
            ("July 2026 salary is paid on Friday 31 July.", "E"),
            ("Expenses approved on 20 May 2026 are paid with the May salary.", "N"),
        ],
    ),
    (
        "Cooling-off period: 30 days from the start date of your cover or the date you receive your "
        "documents, whichever is later.\n"
        "Policy start date: 1 December 2026. Documents issued by email on 3 December 2026.",
        [
            ("You can still cancel within the cooling-off period on 1 January 2027.", "E"),
            ("The cooling-off period ends on 31 December 2026.", "C"),
        ],
    ),
    (
        "Lost or stolen cards\n"
        "Report a lost or stolen card straight away in the app or by calling us; the line is open 24 hours "
        "a day. A replacement card is sent within 5 business days. You are not liable for transactions "
        "made after you report the loss.",
        [
            ("Report your card lost on Wednesday 14 October 2026 and the replacement will be sent by Wednesday 21 October 2026.", "E"),
            ("You're not liable for any transactions made before you report the loss.", "N"),
            ("A replacement card is sent within 10 business days.", "C"),
        ],
    ),
    (
        "The Group's financial year runs from 1 April to 31 March. Annual objectives must be set by the end "
        "of the first quarter of the financial year and reviewed at mid-year (the end of Q2).",
        [
            ("Objectives must be agreed by 30 June.", "E"),
            ("Objectives have to be set by the end of March.", "C"),
            ("Year-end appraisals take place in April.", "N"),
        ],
    ),
    (
        "Cheque clearing\n"
        "Cheques paid in at a branch before 3pm on a business day will clear by 11:59pm on the next business "
        "day. Cheques paid in after 3pm are treated as received on the next business day.",
        [
            ("A cheque paid in at 4pm on Friday 27 November 2026 will clear by 11:59pm on Tuesday 1 December 2026.", "E"),
            ("Cheques paid in before 3pm clear on the same day.", "C"),
            ("Cheques paid in using the app clear by the end of the next business day.", "N"),
        ],
    ),
    (
        "Records retention (IT-REC-02)\n"
        "Customer identification records: 5 years after the end of the business relationship.\n"
        "Call recordings: 7 years.\n"
        "Branch CCTV footage: 31 days.",
        [
            ("If a customer closes their account on 30 June 2026, their identification records are kept until 30 June 2031.", "E"),
            ("Call recordings are kept for five years.", "C"),
            ("CCTV footage is deleted after 31 days unless it is needed for an investigation.", "N"),
        ],
    ),
    (
        "We will send your renewal invitation at least 21 days before your renewal date. Your policy "
        "renews automatically unless you tell us otherwise.\n"
        "Renewal date: 1 March 2027",
        [
            ("You'll receive your renewal invitation no later than 8 February 2027.", "E"),
            ("Unless you renew it, your policy will lapse on 1 March 2027.", "C"),
            ("If you don't want to renew, you must tell us by 22 February 2027.", "N"),
        ],
    ),
    (
        "New Clarity Saver rates apply to accounts opened on or after 1 September 2026. Accounts opened "
        "before that date keep their existing rate until 31 March 2027.",
        [
            ("An account opened on 31 August 2026 stays on its existing rate until the end of March 2027.", "E"),
            ("An account opened on 2 September 2026 keeps its previous rate until 31 March 2027.", "C"),
            ("Accounts opened before 1 September 2026 move to the new rates on 1 April 2027.", "N"),
        ],
    ),
    (
        "Kingsbridge branch — opening hours\n"
        "Monday to Friday: 9am–5pm\n"
        "Saturday: 9am–1pm\n"
        "Sunday: closed",
        [
            ("The Kingsbridge branch is open on the morning of Saturday 12 December 2026.", "E"),
            ("You can visit the Kingsbridge branch on Sunday 13 December 2026.", "C"),
        ],
    ),
]

NEGATION = [
    (
        "Joint accounts\n"
        "Either account holder may make withdrawals without the consent of the other. Both account holders "
        "must sign to close the account.",
        [
            ("You don't need the other account holder's permission to take money out of a joint account.", "E"),
            ("One holder acting alone can close a joint account.", "C"),
            ("Either holder may add a third person to the joint account.", "N"),
        ],
    ),
    (
        "Exclusions — what is not covered\n"
        "- Cancellation because of a pre-existing medical condition you did not declare to us\n"
        "- Travel against the advice of the Foreign, Commonwealth & Development Office\n"
        "- Claims arising from being under the influence of alcohol or drugs, unless the drugs were "
        "prescribed by a doctor\n"
        "- Loss of cash that was not carried on your person",
        [
            ("The policy won't pay out if you cancel because of a pre-existing condition you kept from us.", "E"),
            ("Being under the influence of medication your doctor prescribed doesn't, on its own, get a claim excluded.", "E"),
            ("Cash stolen from your hotel room safe is covered.", "C"),
            ("Cancellation because of a pre-existing condition you did declare is covered.", "N"),
        ],
    ),
    (
        "AML Manual 3.1 — Opening accounts\n"
        "You must not open an account until identity verification is complete. Enhanced due diligence is "
        "mandatory for politically exposed persons (PEPs). Simplified due diligence may be applied to "
        "low-risk customers with the approval of the MLRO.",
        [
            ("An account can't be opened before the customer's identity has been verified.", "E"),
            ("Simplified due diligence must be applied to all low-risk customers.", "N"),
            ("Simplified due diligence can be used for a low-risk customer without anyone's approval.", "C"),
            ("Enhanced due diligence is required only for PEPs.", "N"),
        ],
    ),
    (
        "Four-eyes principle\n"
        "No payment above £10,000 may be released by a single member of staff. A second authoriser, who "
        "must not be the person who keyed the payment, must approve it in the payments system.",
        [
            ("A £15,000 payment needs two different people: one to key it and another to approve it.", "E"),
            ("Whoever keyed a £12,000 payment can also be its second authoriser.", "C"),
            ("Payments below £10,000 can be released by one person.", "N"),
            ("Payments above £10,000 must also be approved by the Head of Payments.", "N"),
        ],
    ),
    (
        "Working abroad (HR-07)\n"
        "Employees are not permitted to work from outside the UK for more than 20 working days in any "
        "12-month period without written approval from HR and Tax. Working from a country under sanctions "
        "is never permitted.",
        [
            ("With written approval from HR and Tax, you may work from a sanctioned country.", "C"),
            ("Working outside the UK for 25 working days in a 12-month period requires written sign-off from HR and Tax.", "E"),
            ("To work abroad for more than 20 working days, written approval from HR alone is enough.", "C"),
        ],
    ),
    (
        "Returned payments and unarranged borrowing\n"
        "We will not charge you fees for returned payments. We do not charge for unarranged overdrafts; "
        "instead, if you try to make a payment that would take you over your limit, we will usually "
        "decline it.",
        [
            ("There's no fee if one of your payments is returned unpaid.", "E"),
            ("Going past your arranged limit incurs an unarranged overdraft fee of £5.", "C"),
            ("We'll send you a text whenever we decline a payment that would take you over your limit.", "N"),
        ],
    ),
    (
        "Contactless\n"
        "Contactless payments are limited to £100 per transaction; Chip and PIN is required above this "
        "limit. You cannot disable contactless on Classic cards. Gold and Platinum cardholders can switch "
        "it off in the app.",
        [
            ("You can't pay for a £120 shop purchase by contactless.", "E"),
            ("Chip and PIN is never needed for payments under £100.", "N"),
        ],
    ),
    (
        "IT-DP-3 Devices and customer data\n"
        "Customer data must not be stored on personal devices. Staff may use their own phones for "
        "multi-factor authentication, provided the Marlow & Finch Authenticator app is used. USB storage is "
        "blocked on all bank laptops unless Information Security approves an exception.",
        [
            ("Using your own phone for MFA is allowed if you use the Marlow & Finch Authenticator app.", "E"),
            ("Staff are required to use their own phones for MFA.", "N"),
            ("USB storage can never be used on a bank laptop.", "C"),
            ("A USB stick won't work on a bank laptop without an exception approved by Information Security.", "E"),
        ],
    ),
    (
        "Driving other cars\n"
        "Driving Other Cars (DOC) cover is not available on the Essentials policy. It is included on Premier "
        "policies, but only for the policyholder (not named drivers) and only for third-party liability.",
        [
            ("A named driver on a Premier policy isn't covered to drive other cars.", "E"),
            ("Premier policyholders have comprehensive cover when driving someone else's car.", "C"),
            ("A Premier policyholder driving a friend's car has third-party cover.", "E"),
        ],
    ),
    (
        "Taking your complaint further\n"
        "You can refer your complaint to the Financial Ombudsman Service if you are unhappy with our final "
        "response, or if 8 weeks have passed since you complained and you have not received one. The "
        "service is free for customers. You must refer it within 6 months of the date of our final response.",
        [
            ("You can't go to the Ombudsman before 8 weeks have passed, even if you already have our final response.", "C"),
            ("You must contact the Ombudsman within 6 months of making your complaint.", "C"),
            ("If you miss the 6-month deadline, the Ombudsman will refuse to look at your complaint.", "N"),
        ],
    ),
    (
        "Accidental damage\n"
        "Accidental damage is not included as standard. It can be added to buildings cover, contents cover, "
        "or both, for an extra premium. Accidental damage to items away from the home is not covered even "
        "when the add-on is chosen; for this you need Personal Possessions cover.",
        [
            ("Dropping your laptop in a café isn't covered by the accidental damage add-on.", "E"),
            ("Accidental damage cover comes free with contents cover.", "C"),
            ("The accidental damage add-on costs the same for buildings cover as for contents cover.", "N"),
        ],
    ),
    (
        "Staff accounts (Code of Conduct 4.3)\n"
        "Employees must not process transactions on their own accounts or on accounts of family members. "
        "Employees are not prohibited from holding accounts with other banks.",
        [
            ("Staff are allowed to bank with other providers.", "E"),
            ("You may process a transaction on your spouse's account if a manager is watching.", "C"),
            ("Employees aren't allowed to have accounts with other banks.", "C"),
        ],
    ),
    (
        "Porting your mortgage\n"
        "You can take your mortgage with you when you move home (porting), subject to a new affordability "
        "assessment. Porting is not possible on our Offset mortgages.",
        [
            ("An Offset mortgage can't be moved to a new property.", "E"),
            ("If you port your mortgage, no early repayment charge applies.", "N"),
        ],
    ),
    (
        "Winter sports\n"
        "Winter sports are excluded unless you have bought the Winter Sports add-on. Off-piste skiing is not "
        "covered unless you are with a qualified guide. Heli-skiing is never covered.",
        [
            ("Off-piste skiing without a qualified guide isn't covered.", "E"),
            ("Off-piste skiing is covered as long as you're with a qualified guide.", "N"),
            ("Heli-skiing is covered if you buy the Winter Sports add-on.", "C"),
            ("Without the Winter Sports add-on, skiing isn't covered.", "E"),
        ],
    ),
    (
        "Expenses (HR-FIN-2)\n"
        "Receipts are not required for claims under £10. Alcohol cannot be claimed unless it is part of "
        "approved client entertainment. Claims must be submitted within 60 days of the expense.",
        [
            ("You don't need to keep a receipt to claim for a £6 sandwich.", "E"),
            ("You can't claim for a beer you bought alone at the airport while travelling.", "E"),
            ("Receipts are optional for every claim below £25.", "C"),
        ],
    ),
    (
        "Cooling-off — savings\n"
        "You can change your mind within 14 days of opening a Fixed Saver. After the cooling-off period, "
        "withdrawals and closure are not permitted until maturity.",
        [
            ("Once the 14 days are up, you can't take money out of a Fixed Saver before it matures.", "E"),
            ("After the cooling-off period, you can close a Fixed Saver early by paying a penalty.", "C"),
            ("Adding money to a Fixed Saver after it has been opened isn't allowed.", "N"),
        ],
    ),
]

ENTITY = [
    (
        "Mortgage processing\n"
        "Marlow & Finch mortgage applications are processed by the Leeds Mortgage Centre. Complex cases "
        "(self-employed applicants and buy-to-let portfolios of more than four properties) are referred to "
        "the Specialist Lending team in Bristol.",
        [
            ("Applications from self-employed people are sent to the Specialist Lending team in Bristol.", "E"),
            ("Standard mortgage applications are processed in Bristol.", "C"),
            ("A landlord with six buy-to-let properties would be dealt with by the Leeds Mortgage Centre.", "C"),
        ],
    ),
    (
        "Insurance partners\n"
        "Marlow & Finch Home Insurance is underwritten by Calder Mutual Insurance plc. Travel insurance is "
        "underwritten by Orbis Assurance Ltd and administered by Wayfarer Claims Services. Car insurance is "
        "arranged by Marlow & Finch Insurance Services and underwritten by a panel of insurers.",
        [
            ("Calder Mutual is the underwriter of the bank's home insurance.", "E"),
            ("Travel claims are administered by Wayfarer Claims Services.", "E"),
            ("Travel insurance is underwritten by Calder Mutual Insurance plc.", "C"),
            ("Car insurance is underwritten by Orbis Assurance Ltd.", "N"),
        ],
    ),
    (
        "Lounge access by card tier\n"
        "Platinum: unlimited airport lounge visits via LoungeKey\n"
        "Gold: 4 free visits a year, then £24 per visit\n"
        "Classic: no lounge access",
        [
            ("Gold cardholders pay £24 for each lounge visit after their fourth in a year.", "E"),
            ("Platinum cardholders get four free lounge visits a year.", "C"),
            ("Lounge access for Platinum cardholders is provided through Priority Pass.", "C"),
            ("Classic cardholders can pay £24 a visit to use airport lounges.", "C"),
        ],
    ),
    (
        "Compliance Manual 1.2 — Roles\n"
        "The Money Laundering Reporting Officer (MLRO) is Priya Raman. Suspicious activity reports are "
        "submitted to the National Crime Agency by the MLRO or, in her absence, by the Deputy MLRO, Tom "
        "Achebe. Staff must report suspicions internally to the Financial Crime Unit, never directly to "
        "the NCA.",
        [
            ("When Priya Raman is away, Tom Achebe submits suspicious activity reports.", "E"),
            ("Staff should send their suspicions straight to the National Crime Agency.", "C"),
            ("Tom Achebe is the bank's MLRO.", "C"),
            ("Priya Raman heads the Financial Crime Unit.", "N"),
        ],
    ),
    (
        "Core systems\n"
        "Customer records are held in Corelink, the core banking system. Complaints are logged in CaseTrack. "
        "Employees request system access through the ServiceDesk portal; access to Corelink also needs "
        "approval from its system owner, the Head of Retail Operations.",
        [
            ("Complaints are recorded in CaseTrack.", "E"),
            ("The Head of IT Security is the system owner of Corelink.", "C"),
            ("CaseTrack is also used to log fraud cases.", "N"),
            ("To get into Corelink, you raise a ServiceDesk request and need sign-off from the Head of Retail Operations.", "E"),
        ],
    ),
    (
        "Branch changes\n"
        "From 2 November 2026 the Harrogate branch will close and its customers' accounts will be managed "
        "from the York branch. The Ripon branch remains open.",
        [
            ("Once Harrogate closes, York will look after its customers' accounts.", "E"),
            ("The Ripon branch is closing on 2 November 2026.", "C"),
            ("Harrogate customers' accounts will move to the Ripon branch.", "C"),
            ("The York branch will open on Saturdays from November 2026.", "N"),
        ],
    ),
    (
        "Fraud teams\n"
        "Fraud alerts raised out of hours are handled by the Fraud Operations team in Glasgow. During "
        "business hours, alerts go to the Fraud Prevention desk in Cardiff. Card disputes are handled by "
        "the Chargebacks team, also in Cardiff.",
        [
            ("An alert raised at 2am is dealt with by Fraud Operations in Glasgow.", "E"),
            ("The Chargebacks team is based in Glasgow.", "C"),
            ("During the working day, fraud alerts are picked up in Cardiff.", "E"),
            ("The Chargebacks team aims to resolve disputes within 30 days.", "N"),
        ],
    ),
    (
        "People processes\n"
        "Parental leave requests are submitted in Workday and approved by your line manager. Payroll "
        "queries go to the People Hub. Occupational health referrals are made by HR Business Partners, not "
        "by line managers.",
        [
            ("Your line manager approves your parental leave request in Workday.", "E"),
            ("A line manager can refer an employee to occupational health.", "C"),
            ("Questions about your pay should be raised with the People Hub.", "E"),
            ("Parental leave requests are approved by your HR Business Partner.", "C"),
        ],
    ),
    (
        "Which account is right for you?\n"
        "The Clarity Current Account is available to UK residents aged 18 or over. The Clarity Teen account "
        "is for 11–17-year-olds, and the Clarity Student account is for full-time students in higher "
        "education.",
        [
            ("A 15-year-old can open a Clarity Teen account.", "E"),
            ("The Clarity Student account is designed for 11–17-year-olds.", "C"),
            ("A 20-year-old full-time university student can open a Clarity Current Account.", "N"),
        ],
    ),
    (
        "Claims contacts\n"
        "Home insurance claims: Calder Mutual claims line, 0800 092 4410.\n"
        "Travel insurance claims: Wayfarer Claims Services, 0800 092 7731.\n"
        "Car insurance claims: Marlow & Finch Motor Claims, 0800 092 5580.",
        [
            ("To claim on your car insurance, you call Marlow & Finch Motor Claims.", "E"),
            ("Travel claims are made through the Calder Mutual claims line.", "C"),
            ("Home insurance claims can also be made online.", "N"),
        ],
    ),
]

MULTI = [
    (
        (
            "Definitions\n"
            "\"Valuables\" means jewellery, watches, furs, precious metals and works of art.",
            "4.6 Limits for valuables\n"
            "The most we will pay for any one item of valuables is £2,500, and £10,000 in total for all "
            "valuables under this policy.",
        ),
        [
            ("The most you can claim for a single stolen watch is £2,500.", "E"),
            ("A stolen laptop is limited to £2,500.", "N"),
            ("If two gold rings worth £3,000 each are stolen, you'd receive no more than £5,000 for them.", "E"),
        ],
    ),
    (
        (
            "Customer risk rating (AML 2.3)\n"
            "A customer is rated high risk if they are a PEP, are resident in a high-risk third country, or "
            "operate a cash-intensive business.",
            "Periodic review (AML 5.1)\n"
            "High-risk relationships must be reviewed every 12 months and approved by a Senior Manager at "
            "each review.",
        ),
        [
            ("A customer who runs a cash-intensive business has to be reviewed every year, with a Senior Manager approving the relationship each time.", "E"),
            ("A PEP's relationship is reviewed every two years.", "C"),
            ("A customer living in France must be reviewed every 12 months.", "N"),
            ("Each annual review of a PEP must also be signed off by the MLRO.", "N"),
        ],
    ),
    (
        (
            "Premier eligibility\n"
            "The Premier current account is available to customers who pay in at least £5,000 a month or "
            "hold £100,000 in savings or investments with us.",
            "Premier benefits\n"
            "Premier customers pay no foreign transaction fees and get worldwide family travel insurance "
            "included.",
        ),
        [
            ("If you pay in £6,000 every month, you can have a Premier account and spend abroad without foreign transaction fees.", "E"),
            ("The worldwide family travel insurance that comes with Premier includes winter sports cover.", "N"),
            ("Paying in £3,000 a month is enough to qualify for Premier.", "C"),
        ],
    ),
    (
        (
            "Procurement Policy 6 — Approval matrix\n"
            "Contracts with a total value up to £100,000: Head of Department.\n"
            "Above £100,000 and up to £1m: Chief Operating Officer.\n"
            "Above £1m: Executive Committee.",
            "Procurement Policy 2 — Contract value\n"
            "The total value of a contract is its annual cost multiplied by the number of years of the "
            "initial term. Optional extensions are not included.",
        ),
        [
            ("A three-year contract costing £40,000 a year has to be approved by the Chief Operating Officer.", "E"),
            ("A two-year contract at £45,000 a year is within a Head of Department's authority.", "E"),
            ("A contract costing £60,000 a year for an initial two years, with an optional third year, falls within the Head of Department's limit.", "C"),
        ],
    ),
    (
        (
            "Travel insurance — cover levels\n"
            "Essentials: cancellation cover up to £1,500 per person.\n"
            "Comprehensive: cancellation cover up to £5,000 per person.",
            "Your policy schedule\n"
            "Policyholder: Ms A. Okafor\n"
            "Cover level: Comprehensive\n"
            "Insured persons: 2",
        ),
        [
            ("Ms Okafor's policy covers cancellation costs of up to £5,000 for each insured person.", "E"),
            ("Ms Okafor's cancellation cover is limited to £1,500 per person.", "C"),
            ("Across both insured people, Ms Okafor's policy pays at most £10,000 for cancellation.", "E"),
            ("Ms Okafor's policy includes winter sports cover.", "N"),
        ],
    ),
    (
        (
            "Trading window calendar 2026\n"
            "Windows open: 4 March – 2 April; 6 May – 4 June; 5 August – 3 September; 4 November – 3 December.",
            "Dealing rules\n"
            "Insider-list staff may trade only within an open window and must obtain pre-clearance from "
            "Compliance at least 2 business days before trading.",
        ),
        [
            ("A trade on Wednesday 20 May 2026 would fall inside an open window, and its pre-clearance would need to be in place by Monday 18 May.", "E"),
            ("With pre-clearance, insider-list staff may trade on 15 July 2026.", "C"),
            ("Staff who are not on the insider list can trade outside the windows.", "N"),
        ],
    ),
    (
        (
            "Grade structure\n"
            "Grade 5: Team Leader. Grade 6: Manager. Grade 7: Senior Manager. Grade 8: Director.",
            "Expenses approval\n"
            "Expense claims over £1,000 must be approved by someone at Grade 7 or above.",
        ),
        [
            ("A Director can approve a £1,500 expense claim.", "E"),
            ("A Manager can approve a £2,000 expense claim.", "C"),
            ("A Team Leader can approve a £500 claim.", "N"),
        ],
    ),
    (
        (
            "Card fee schedule\n"
            "Cash withdrawals using a credit card: 3% of the amount (minimum £3).",
            "Your credit card statement — 14 June\n"
            "Cash machine withdrawal, Lisbon: £60.00\n"
            "Cash machine withdrawal, Porto: £200.00",
        ),
        [
            ("The cash fee on the Porto withdrawal is £6.", "E"),
            ("The cash fee on the Lisbon withdrawal is £1.80.", "C"),
            ("Together, the two cash withdrawals attract £9 in cash fees.", "E"),
            ("A foreign exchange fee was also applied to both withdrawals.", "N"),
        ],
    ),
    (
        (
            "Compliance Manual 9.1\n"
            "An expression of dissatisfaction that is resolved by the close of the third business day after "
            "receipt is a 'summary resolution complaint'.",
            "Compliance Manual 9.2\n"
            "Summary resolution complaints must be recorded in CaseTrack, but a final response letter is not "
            "required; send a summary resolution communication instead.",
        ),
        [
            ("A complaint received on a Monday and resolved by close of business that Thursday doesn't need a final response letter, though it must still be logged in CaseTrack.", "E"),
            ("A complaint resolved on the fifth business day after receipt can be closed with a summary resolution communication.", "N"),
            ("Summary resolution complaints don't need to be recorded anywhere.", "C"),
        ],
    ),
    (
        (
            "Fixed Saver rates from 1 October 2026\n"
            "1 Year: 4.35% AER | 2 Year: 4.05% AER | 3 Year: 3.90% AER",
            "Fixed Saver terms\n"
            "No withdrawals are allowed before maturity. Minimum deposit: £1,000.",
        ),
        [
        ],
    ),
    (
        (
            "Who is insured\n"
            "Your schedule lists who is insured to drive. Only drivers named on the schedule are covered.",
            "Schedule — policy MF-CAR-22817\n"
            "Policyholder: David Sousa (main driver)\n"
            "Named drivers: Elena Sousa",
        ),
        [
            ("Elena Sousa is insured to drive the car.", "E"),
            ("David's son Marco is covered to drive the car.", "C"),
            ("Elena Sousa is the main driver.", "C"),
        ],
    ),
    (
        (
            "Definitions\n"
            "\"Unoccupied\" means not lived in by you or your family for more than 60 consecutive days.",
            "Exclusions\n"
            "We will not pay for theft, escape of water or malicious damage while your home is unoccupied.",
        ),
        [
            ("If nobody has lived in your home for 75 days in a row and a pipe bursts, the escape of water damage won't be covered.", "E"),
            ("A break-in while you're on a three-week holiday isn't covered.", "N"),
            ("Storm damage during an 80-day absence is excluded.", "N"),
            ("Theft from your home after it has stood empty for 70 days is still covered.", "C"),
        ],
    ),
    (
        (
            "Certification Regime\n"
            "The following roles are Certification Functions: mortgage advisers, investment advisers, and "
            "anyone who supervises them.",
            "Annual certification\n"
            "Everyone performing a Certification Function must be assessed as fit and proper at least once "
            "every 12 months by HR and their line manager.",
        ),
        [
            ("Mortgage advisers have to be assessed as fit and proper every year.", "E"),
            ("A team leader who supervises investment advisers needs a fit and proper assessment at least every 12 months.", "E"),
            ("Branch cashiers must be certified annually.", "N"),
            ("Investment advisers are assessed by their line manager alone.", "C"),
        ],
    ),
    (
        (
            "Overdraft pricing\n"
            "Arranged overdraft interest: Classic 39.9% EAR | Plus 29.9% EAR | Premier 19.9% EAR",
            "Your account summary\n"
            "Account type: Plus\n"
            "Arranged overdraft limit: £1,500",
        ),
        [
        ],
    ),
]

PARA = [
    (
        "Bereavement\n"
        "When a customer dies, we freeze sole accounts on receiving notification. Joint accounts are not "
        "frozen and pass automatically to the surviving account holder.",
        [
            ("When one holder of a joint account dies, the money passes straight to the other holder without the account being frozen.", "E"),
            ("All accounts, whether sole or joint, are frozen when we are told of a death.", "C"),
        ],
    ),
    (
        "Proof of address\n"
        "You may be asked to provide proof of address dated within the last three months. We accept utility "
        "bills, council tax bills and bank statements, but not mobile phone bills.",
        [
            ("A mobile phone bill won't do as proof of where you live.", "E"),
            ("We accept recent mobile phone bills as proof of address.", "C"),
            ("Every new customer must provide proof of address.", "N"),
            ("Your council tax bill should be no more than three months old if you use it as proof of address.", "E"),
        ],
    ),
    (
        "Cashback Card\n"
        "The Cashback Card pays 1% back on all purchases, up to a cap of £100 cashback per year. Cashback is "
        "credited to your card account every January.",
        [
            ("Once a year, in January, the cashback you've earned — a pound for every hundred spent, to a maximum of £100 — is paid into your card account.", "E"),
            ("You'll earn cashback on up to £10,000 of spending a year.", "E"),
            ("Cashback is paid out each month.", "C"),
            ("Cashback is earned on purchases but not on balance transfers.", "N"),
        ],
    ),
    (
        "Privileged access\n"
        "Before an employee can be granted privileged access, their manager must request it, the system owner "
        "must approve it, and the employee must complete the privileged-access training module.",
        [
            ("Privileged access requires a request from your manager, the system owner's sign-off and completion of the relevant training.", "E"),
            ("A manager can grant privileged access without the system owner's approval.", "C"),
            ("Privileged access is reviewed every quarter.", "N"),
        ],
    ),
    (
        "Storm damage\n"
        "Claims for storm damage are not accepted where the damage was caused by wear and tear or lack of "
        "maintenance. Storm means winds of at least 55 mph, or heavy rainfall or snow.",
        [
            ("If the roof fails because it wasn't maintained, that won't be paid as storm damage.", "E"),
            ("Winds of 60 mph count as a storm under this policy.", "E"),
            ("Winds of 50 mph are enough to count as a storm.", "C"),
        ],
    ),
    (
        "Switching to us\n"
        "The Current Account Switch Service moves your payments and balance in 7 working days and guarantees "
        "to refund any interest or charges caused by a mistake in the switch.",
        [
            ("If something goes wrong with the switch and you're charged as a result, you'll get that money back.", "E"),
            ("Switching takes ten working days.", "C"),
            ("Your old account is closed automatically once the switch is complete.", "N"),
        ],
    ),
    (
        "Our helpline is open from 8am to 8pm on weekdays and 9am to 5pm at weekends, except Christmas Day, "
        "Boxing Day and New Year's Day, when it is closed.",
        [
            ("You can't call the helpline on 25 December.", "E"),
            ("On Saturdays and Sundays the lines close at 5pm.", "E"),
            ("The helpline is open around the clock.", "C"),
            ("Calls to the helpline are free from UK landlines.", "N"),
        ],
    ),
    (
        "Secondary employment (HR-15)\n"
        "Employees who want to take up a second job must first get written approval from their manager. "
        "Approval will not be given where the role is with a competitor.",
        [
            ("A second job at a rival bank won't be approved.", "E"),
            ("You need your manager's permission in writing before you start a second job.", "E"),
            ("You can take a second job and let your manager know afterwards.", "C"),
        ],
    ),
    (
        "Payment holidays\n"
        "If you're in financial difficulty, you may be able to take a mortgage payment holiday of up to 3 "
        "months. Interest continues to build up during the holiday, so your monthly payments will be higher "
        "afterwards.",
        [
            ("Pausing your mortgage payments doesn't stop interest from mounting, which pushes up what you pay later.", "E"),
            ("No interest is charged while you're on a payment holiday.", "C"),
            ("Any customer can take a three-month payment holiday.", "N"),
        ],
    ),
    (
        "Data breaches (IT-DP-7)\n"
        "Any suspected personal data breach must be reported to the Data Protection Officer within 1 hour of "
        "discovery. The DPO decides whether the breach must be notified to the ICO, which must happen within "
        "72 hours.",
        [
            ("Staff have sixty minutes from spotting a suspected breach to tell the DPO.", "E"),
            ("It's up to the DPO whether the ICO is told, and if it is, the ICO must hear within three days.", "E"),
            ("Staff who find a breach must notify the ICO themselves within 72 hours.", "C"),
        ],
    ),
    (
        "Staying safe\n"
        "To keep your account secure, we will never ask you to move money to a 'safe account', and we will "
        "never ask for your full PIN or password over the phone.",
        [
            ("If someone phones you and asks for your full password, it isn't us.", "E"),
            ("The bank might ask you to transfer funds to a safe account if it suspects fraud.", "C"),
            ("The bank may ask you for two digits of your PIN over the phone.", "N"),
        ],
    ),
    (
        "Booking annual leave\n"
        "Leave requests of more than 10 consecutive working days need approval from your second-line manager "
        "as well as your line manager. Requests should be made at least four weeks before the start date.",
        [
            ("For three weeks off in a row, you'll need sign-off from both your line manager and your manager's manager.", "E"),
            ("Ten consecutive working days off needs only your line manager's approval.", "N"),
            ("You should put in a leave request at least 28 days before the first day off.", "E"),
            ("Leave should be requested at least two weeks in advance.", "C"),
        ],
    ),
]

DIST = [
    (
        "Using your card abroad\n"
        "The Clarity debit card charges no foreign transaction fees on purchases made abroad. Cash "
        "withdrawals abroad are also free from us, but the machine operator may charge its own fee.",
        [
            ("The Clarity credit card has an annual fee of £30.", "N"),
            ("Clarity debit card purchases abroad are converted at the Mastercard exchange rate.", "N"),
            ("Buying things abroad with your Clarity debit card won't cost you anything in foreign transaction fees.", "E"),
        ],
    ),
    (
        "Escape of water\n"
        "Claims for escape of water carry an excess of £350. We also cover the cost of tracing and accessing "
        "the leak, up to £5,000.",
        [
            ("Subsidence claims have an excess of £1,000.", "N"),
            ("Flood claims carry a £350 excess.", "N"),
            ("If a pipe leaks and damages your kitchen, the excess is £350.", "E"),
        ],
    ),
    (
        "Purchase rates\n"
        "Our 2-year fixed rate for purchases up to 60% LTV is 4.29%, with a £999 product fee.",
        [
            ("Our 5-year fixed rate at 60% LTV is 4.09%.", "N"),
            ("Remortgage customers get free legal work.", "N"),
            ("The 2-year fix at 75% LTV has no product fee.", "N"),
        ],
    ),
    (
        "Remote account opening\n"
        "For non-face-to-face account opening, we verify identity electronically using two independent data "
        "sources.",
        [
            ("Customers opening an account in a branch need two forms of photo ID.", "N"),
            ("Electronic identity checks are carried out by Experian.", "N"),
        ],
    ),
    (
        "Laptop security\n"
        "Laptops must be encrypted with BitLocker and locked when unattended. Screens lock automatically "
        "after 5 minutes of inactivity.",
        [
            ("Bank mobile phones lock after 2 minutes of inactivity.", "N"),
            ("Laptops are replaced every four years.", "N"),
            ("Leave your laptop idle for five minutes and the screen will lock itself.", "E"),
        ],
    ),
    (
        "Flexible benefits\n"
        "Employees can buy up to 5 extra days of annual leave each year through the flexible benefits scheme, "
        "during the enrolment window in March.",
        [
            ("Employees can sell up to 5 days of annual leave back to the bank.", "N"),
            ("The cycle-to-work scheme is open during the March enrolment window.", "N"),
            ("In March you can buy as many as five additional holiday days for the year.", "E"),
        ],
    ),
    (
        "Baggage\n"
        "Baggage cover: up to £2,000 per person, with a single item limit of £300. Delayed baggage: £100 "
        "after 12 hours.",
        [
            ("Missed departure cover pays up to £500.", "N"),
            ("Personal money is covered up to £300.", "N"),
            ("Replacing a lost passport is covered up to £250.", "N"),
        ],
    ),
    (
        "Mandatory training\n"
        "All staff must complete annual AML training by 31 March each year. New joiners must complete it "
        "within 30 days of starting.",
        [
            ("Data protection training is due by 30 June each year.", "N"),
            ("Not completing AML training on time leads to disciplinary action.", "N"),
            ("Managers must complete an additional sanctions module.", "N"),
        ],
    ),
    (
        "Retained cards\n"
        "If a cash machine keeps your card, call us and we'll cancel it and send you a new one.",
        [
            ("Cards retained by machines abroad are replaced by courier.", "N"),
            ("You can freeze your card temporarily in the app.", "N"),
        ],
    ),
    (
        "Junior ISA\n"
        "The Junior ISA allows deposits of up to £9,000 per tax year. The money is locked until the child "
        "turns 18.",
        [
            ("The adult cash ISA allowance is £20,000.", "N"),
            ("The Junior ISA pays 4.5% AER.", "N"),
            ("Up to £9,000 can be paid into a Junior ISA in each tax year.", "E"),
        ],
    ),
    (
        "Courtesy car\n"
        "A courtesy car is provided while your car is being repaired by one of our approved repairers.",
        [
            ("You'll get a courtesy car if your car is written off.", "N"),
            ("Breakdown cover is included with Premier policies.", "N"),
        ],
    ),
]

SPEC = [
    (
        "Dormant accounts\n"
        "We may close your account if it has been dormant and we have been unable to contact you.",
        [
            ("We may close your account if it's been dormant for 15 years and we can't reach you.", "N"),
            ("If your account has been dormant and we can't get hold of you, we might close it.", "E"),
        ],
    ),
    (
        "Your contents insurance covers items in your garden up to £1,000.",
        [
            ("Items in your garden are covered up to £1,000 only if they are stored in a locked shed.", "N"),
            ("Things in your garden are insured for up to a thousand pounds.", "E"),
        ],
    ),
    (
        "Correspondent banking\n"
        "The MLRO must approve any new relationship with a correspondent bank.",
        [
            ("Because correspondent banks are high risk, the MLRO has to approve new relationships with them.", "N"),
            ("The MLRO must approve new correspondent banking relationships within 10 business days.", "N"),
            ("No new correspondent banking relationship can start without the MLRO's approval.", "E"),
        ],
    ),
    (
        "Staff who work on a bank holiday receive a day off in lieu.",
        [
            ("Staff who work on a bank holiday get a day off in lieu, to be taken within three months.", "N"),
            ("Working on a bank holiday earns you a day off in lieu plus double pay.", "N"),
            ("If you work on a bank holiday, you'll get another day off instead.", "E"),
        ],
    ),
    (
        "Overpayments\n"
        "You can make overpayments on your mortgage online or by phone.",
        [
            ("You can make overpayments online, by phone or in any branch.", "N"),
            ("Overpayments made online reduce your monthly payment from the following month.", "N"),
        ],
    ),
    (
        "Platinum card benefits\n"
        "The Platinum card includes travel insurance for the cardholder.",
        [
            ("The Platinum card includes travel insurance for the cardholder and their partner.", "N"),
            ("The Platinum card includes worldwide travel insurance, including the USA.", "N"),
            ("As a Platinum cardholder, you're covered by travel insurance.", "E"),
        ],
    ),
    (
        "Transaction monitoring\n"
        "Fraud Operations review all transactions flagged by the monitoring system before the next business "
        "day.",
        [
            ("Fraud Operations, led by Sarah Whitlock, review every flagged transaction before the next business day.", "N"),
            ("A transaction flagged on a Tuesday will have been reviewed by Fraud Operations before Wednesday.", "E"),
        ],
    ),
    (
        "Pet insurance claims must be submitted within 90 days of treatment.",
        [
            ("Pet insurance claims must be submitted within 90 days of treatment, together with the vet's invoice.", "N"),
            ("Submit pet claims within ninety days of the treatment.", "E"),
            ("Pet insurance claims must be submitted online within 90 days of treatment.", "N"),
        ],
    ),
    (
        "Flexible working\n"
        "Employees may request flexible working from their first day of employment.",
        [
            ("Employees may ask for flexible working from day one, and the bank must reply within two months.", "N"),
            ("Employees may request flexible working twice in any 12-month period, starting from their first day.", "N"),
            ("You don't have to wait until you've finished probation to ask for flexible working.", "E"),
        ],
    ),
    (
        "Insurance complaints\n"
        "Complaints about our insurance products are handled by the Insurance Customer Relations team.",
        [
            ("Complaints about our insurance products are handled by the Insurance Customer Relations team in Norwich.", "N"),
            ("A complaint about your Marlow & Finch car insurance is dealt with by the Insurance Customer Relations team.", "E"),
        ],
    ),
    (
        "Overdraft limits\n"
        "We will write to you if your overdraft limit is reduced.",
        [
            ("We'll write to you at least 30 days before your overdraft limit is reduced.", "N"),
            ("We reduce overdraft limits when customers miss payments, and we'll write to tell you if we do.", "N"),
        ],
    ),
    (
        "Whistleblowing\n"
        "The bank's Whistleblowing Champion is a non-executive director.",
        [
            ("The bank's Whistleblowing Champion is a non-executive director, Helen Marsh.", "N"),
            ("Whistleblowing reports can be made anonymously to the Whistleblowing Champion.", "N"),
        ],
    ),
    (
        "Mortgage applications\n"
        "Applicants must provide their last three months' payslips.",
        [
            ("Applicants must provide their last three months' payslips and their latest P60.", "N"),
            ("You'll need to send in the payslips for your most recent three months.", "E"),
        ],
    ),
]

L_TRAVEL = (
    "Marlow & Finch Travel Insurance — Policy summary (Comprehensive)\n"
    "This summary does not contain the full terms of the policy, which are set out in your policy wording. "
    "The policy is underwritten by Orbis Assurance Ltd and claims are administered by Wayfarer Claims "
    "Services. Cover is available to UK residents aged up to 79 at the start date of the policy. Annual "
    "multi-trip policies cover trips of up to 31 days each, or up to 45 days if you have bought the Long "
    "Stay upgrade. Emergency medical expenses are covered up to £10 million, including repatriation to the "
    "UK when our medical team agrees it is necessary. Cancellation and curtailment are covered up to £5,000 "
    "per person. Baggage is covered up to £2,500 per person, with a single article limit of £400 and a total "
    "limit of £600 for valuables. Personal money is covered up to £500, but cash is limited to £300 per "
    "person, or £50 for anyone under 16. If your baggage is delayed on the outward journey for more than 12 "
    "hours, we will pay £25 for each full 12-hour period, up to £250. Travel disruption cover pays up to "
    "£1,500 if your flight is cancelled and you cannot travel within 24 hours of the scheduled departure. "
    "The standard excess is £75 per person per claim, reduced to £0 if you have paid the optional Excess "
    "Waiver premium. Winter sports cover is available only as an add-on; it covers ski equipment up to £750 "
    "and piste closure at £30 a day. You must declare all pre-existing medical conditions, and conditions "
    "you do not declare will not be covered. Claims must be notified within 31 days of your return home. "
    "You have 14 days from receiving your documents to cancel for a full refund, provided you have not "
    "travelled or made a claim. Complaints should first be sent to Wayfarer Claims Services; if you remain "
    "unhappy, you can contact the Financial Ombudsman Service."
)

L_CURRENT = (
    "Clarity Current Account — key terms (effective 1 March 2026)\n"
    "The Clarity Current Account is available to UK residents aged 18 or over, and there is no monthly "
    "fee. You can apply for an arranged overdraft of up to £5,000, subject to status; the interest rate is "
    "39.9% EAR variable, and the first £100 is interest-free. We do not charge fees for unarranged "
    "overdrafts: payments that would take you beyond your limit will usually be declined. Debit card "
    "payments in a foreign currency carry a non-sterling transaction fee of 2.99%, and each cash withdrawal "
    "abroad costs £1.50. Cash withdrawals in the UK are free at any cash machine, although a small number of "
    "machine operators may charge. Faster Payments in sterling are usually received within two hours, and "
    "the daily limit for online and app payments is £25,000. Payments of more than £1,000 to a new payee may "
    "be held for up to 24 hours while we carry out fraud checks. Paper statements are sent monthly if you "
    "ask for them, and online statements are available for 7 years. We do not pay interest on credit "
    "balances. You can switch to us using the Current Account Switch Service, which completes in 7 working "
    "days. To close your account, contact us in the app, by phone or in branch; there is no charge for "
    "closing. We may close your account by giving you at least two months' notice, or immediately if you "
    "have acted fraudulently or have been abusive towards our staff. Joint accounts are available for two "
    "people, and either holder can make payments without the other's consent. If you are in financial "
    "difficulty, our Money Support team can help you agree a repayment plan, and we will freeze overdraft "
    "interest for up to 90 days while the plan is being agreed. These terms may change; we will give you "
    "at least two months' notice of any change that is not in your favour."
)

L_AML = (
    "Financial Crime Manual — Section 3: Customer due diligence\n"
    "3.1 Customer due diligence (CDD) must be completed before a business relationship is established or "
    "an occasional transaction of €15,000 or more is carried out. 3.2 For individuals, staff must verify "
    "full name, date of birth and residential address, either electronically using two independent data "
    "sources or by examining a current passport or photocard driving licence. 3.3 Enhanced due diligence "
    "(EDD) is mandatory for politically exposed persons, their family members and known close associates, "
    "for customers linked to a high-risk third country, and for any relationship the Financial Crime Unit "
    "(FCU) rates as high risk. EDD must include establishing the source of wealth and the source of funds, "
    "and a Senior Manager must approve the relationship before it begins. 3.4 A former PEP remains subject "
    "to EDD for at least 12 months after leaving the public function. 3.5 Simplified due diligence may be "
    "applied only where the FCU has documented that the risk is low; it never applies to PEPs. 3.6 Ongoing "
    "monitoring: high-risk customers are reviewed every 12 months, medium-risk customers every 3 years and "
    "low-risk customers every 5 years. 3.7 If CDD cannot be completed, a new relationship must not be "
    "started and an existing relationship must be ended; staff should also consider whether an internal "
    "suspicion report is needed. 3.8 Staff must never tell a customer that a report has been or may be "
    "made, as tipping off is a criminal offence. 3.9 Internal reports are made to the FCU through the "
    "CaseTrack form within one business day of the suspicion arising, and the MLRO decides whether to "
    "submit a report to the National Crime Agency. 3.10 CDD records are kept for 5 years after the "
    "relationship ends. 3.11 Exceptions to this section may be granted only by the MLRO, in writing, and "
    "are reviewed every 6 months."
)

L_MORTGAGE = (
    "Marlow & Finch Mortgages — Product guide for residential purchases (rates from 1 October 2026)\n"
    "All rates below are for purchases; remortgage rates are published separately. Our 2-year fixed rate "
    "is 4.29% up to 60% loan-to-value (LTV) and 4.49% up to 75% LTV, each with a product fee of £999. Our "
    "5-year fixed rate is 4.09% up to 60% LTV and 4.29% up to 75% LTV, with a product fee of £1,499. For "
    "loans above 75% and up to 90% LTV, only the 5-year fix is available, at 4.79% with no product fee. At "
    "the end of the fixed period you move to our Standard Variable Rate, currently 7.24%. Early repayment "
    "charges (ERCs) apply during the fixed period: on 2-year fixes, 3% in year 1 and 2% in year 2; on "
    "5-year fixes, 5%, 4%, 3%, 2% and 1% in years 1 to 5. You can overpay up to 10% of the balance at the "
    "start of each year without an ERC. The product fee can be paid upfront or added to the loan, in which "
    "case you pay interest on it. We pay for a standard valuation on all purchases. The minimum loan is "
    "£25,000 and the maximum is £2 million, or £1 million above 75% LTV. Applicants must be at least 21, "
    "and the mortgage must end by the time the youngest applicant reaches 75. We lend up to 4.5 times "
    "income, or 5 times for applicants with a combined income over £75,000. Offers are valid for 6 months "
    "from the date of issue. If you are a first-time buyer, we will contribute £500 towards your legal fees "
    "when you use our panel solicitor. Interest-only lending is not available on this range. Your home may "
    "be repossessed if you do not keep up repayments on your mortgage. Please speak to one of our mortgage "
    "advisers before you apply; advice is free and there is no broker fee."
)

L_IT = (
    "IT-POL-01 Acceptable Use of Technology (version 4.2, owner: Chief Information Security Officer)\n"
    "This policy applies to all employees, contractors and temporary staff who use Marlow & Finch systems. "
    "Bank laptops are encrypted and must be locked whenever they are left unattended; screens lock "
    "automatically after 5 minutes of inactivity. Staff must not install software that is not in the "
    "Approved Software Catalogue. Requests for new software are raised through the ServiceDesk portal and "
    "approved by the requester's line manager and the Application Security team; approval normally takes 5 "
    "business days. Personal devices may be used to access email and Teams only through the Intune-managed "
    "Outlook and Teams apps, and customer data must never be downloaded to a personal device. USB storage "
    "is blocked on all bank laptops; exceptions require written approval from Information Security and are "
    "valid for 30 days at most. Generative AI tools may be used only through the bank's approved assistant, "
    "M&F Copilot, and customer data must not be entered into any public AI tool. Staff passwords must be at "
    "least 14 characters and are changed only if compromise is suspected; multi-factor authentication is "
    "required for all remote access. Lost or stolen devices must be reported to the ServiceDesk within 1 "
    "hour, at any time of day, by calling 0800 014 2290. Internet use is monitored, and limited personal "
    "use is allowed outside core hours provided it does not breach this policy. Emails sent outside the bank "
    "that contain confidential information must be sent with the Encrypt option. Breaches of this policy may "
    "lead to disciplinary action, up to and including dismissal. This policy is reviewed every 12 months by "
    "the CISO and approved by the Operational Risk Committee."
)

L_SICK = (
    "HR-12 Sickness Absence Policy\n"
    "If you are unable to work because of illness, you must tell your line manager by phone before 9:30am "
    "on your first day of absence, or within one hour of your normal start time if you work shifts. Text "
    "messages and emails are not acceptable unless you are unable to speak. You must record each day of "
    "absence in Workday when you return. For absences of up to 7 calendar days you can self-certify; from "
    "the 8th day you must provide a fit note from a doctor. Company sick pay is paid at full salary for the "
    "first 13 weeks of absence in any rolling 12-month period and at half salary for the following 13 "
    "weeks, provided you have completed your probation period. During probation, only Statutory Sick Pay is "
    "paid. A return-to-work meeting with your line manager is held after every absence, normally on your "
    "first day back. If you have three or more separate absences, or 10 or more working days of absence in "
    "total, in a rolling 6-month period, your manager will hold an attendance review with support from your "
    "HR Business Partner. Referrals to Occupational Health are made by HR Business Partners; line managers "
    "can ask for a referral but cannot make one directly. Absences related to pregnancy, or to a disability "
    "recorded with HR, are not counted towards attendance review triggers. You may not work for another "
    "employer while on sick leave. Holiday continues to accrue during sickness absence, and up to 20 days of "
    "holiday that could not be taken because of sickness can be carried over. Medical appointments should "
    "be arranged outside working hours where possible; otherwise, up to 4 hours of paid time off is allowed "
    "per appointment. This policy is owned by the Chief People Officer and reviewed every two years."
)

L_CAR = (
    "Section 4 — Excesses, courtesy car and exclusions (Marlow & Finch Car Insurance)\n"
    "4.1 Every claim for damage to your car is subject to the compulsory excess of £250 and any voluntary "
    "excess shown on your schedule. 4.2 An additional excess of £300 applies if the car was being driven by "
    "anyone under 25, or by anyone who has held a full UK licence for less than 2 years. 4.3 For fire and "
    "theft claims, the excess is £250 in total, and no young driver excess applies. 4.4 Windscreen "
    "replacement carries a £95 excess, reduced to £25 if you use our approved windscreen partner, ClearView "
    "Glass; repairs have no excess. 4.5 A courtesy car (a small hatchback) is provided for up to 14 days "
    "while your car is being repaired by an approved repairer. No courtesy car is provided if your car is "
    "written off or stolen, unless you hold Premier cover, in which case a hire car is provided for up to "
    "21 days. 4.6 We will not cover loss or damage while the car is being used for hire or reward, for "
    "racing, or by anyone not named on your schedule. 4.7 We will not pay claims if the driver was over the "
    "legal alcohol limit; we will still meet our legal obligations to third parties and may recover these "
    "costs from you. 4.8 Theft is not covered if the keys were left in, on or near an unattended car. 4.9 "
    "European cover: the policy gives the same cover as in the UK for up to 90 days per trip in EU "
    "countries. 4.10 No Claims Discount: a claim where we cannot recover our costs will reduce your "
    "discount by two years at your next renewal, unless you have paid for NCD Protection. 4.11 You must "
    "tell us about any accident, theft or damage within 48 hours, even if you do not intend to make a "
    "claim, by calling Marlow & Finch Motor Claims."
)

L_COMPLAINTS = (
    "Complaints Handling Procedure (Compliance Manual, chapter 9)\n"
    "A complaint is any expression of dissatisfaction, oral or written, about our products or services, "
    "whether justified or not. Any member of staff who receives a complaint must log it in CaseTrack on the "
    "same business day. We acknowledge written complaints within 2 business days. If we resolve a complaint "
    "to the customer's satisfaction by the close of the third business day after receipt, we send a summary "
    "resolution communication rather than a final response. Otherwise, the complaint is allocated to a "
    "Complaint Handler in the Customer Relations team in Norwich, who must send a final response within 8 "
    "weeks. Complaints about payment services must be answered within 15 business days, or 35 business days "
    "in exceptional circumstances where we write to the customer explaining the reason for the delay. Every "
    "final response must be approved by a Team Manager before it is sent; responses offering redress above "
    "£1,000 also need the approval of the Head of Customer Relations. Final responses must tell the customer "
    "that they can refer the complaint to the Financial Ombudsman Service within 6 months. Redress payments "
    "are made within 5 business days of the customer accepting our offer. If the complaint is about a member "
    "of staff, it must not be handled by that person or by their line manager. Root cause analysis is "
    "carried out monthly on all upheld complaints, and the results are reported to the Conduct Risk "
    "Committee each quarter. Complaint records are kept for at least 3 years, or 5 years for complaints "
    "about mortgages and investments. Vulnerable customers are flagged in CaseTrack and may be offered a "
    "named contact. Staff must never discourage a customer from making a complaint or suggest that a "
    "complaint will affect their account."
)

LONG = [
    (
        L_TRAVEL,
        [
            ("If your suitcase turns up 30 hours late on the outward journey, you'd receive £50.", "E"),
            ("A 12-year-old's cash is covered up to £300.", "C"),
            ("The single article limit for baggage is £500.", "C"),
            ("Travel disruption cover pays out if your flight is delayed by more than 12 hours.", "N"),
            ("Pay the Excess Waiver premium and you won't pay any excess on a claim.", "E"),
        ],
    ),
    (
        L_CURRENT,
        [
            ("Paying in euros with your Clarity debit card adds a 2.99% fee.", "E"),
            ("Sending £2,000 to someone you've never paid before could be held for as long as a day while fraud checks are done.", "E"),
            ("The daily limit for app payments is £10,000.", "C"),
            ("The bank can close your account with one month's notice.", "C"),
            ("Paper statements are free of charge.", "N"),
        ],
    ),
    (
        L_AML,
        [
            ("Before taking on a PEP's brother as a customer, you need a Senior Manager's approval and must establish where his wealth and funds come from.", "E"),
            ("Once a PEP leaves office, enhanced checks stop after six months.", "C"),
            ("Simplified due diligence may be used for a PEP if the FCU has documented that the risk is low.", "C"),
            ("If CDD can't be completed for an existing customer, the relationship has to end.", "E"),
            ("The MLRO must also approve every EDD relationship before it begins.", "N"),
        ],
    ),
    (
        L_MORTGAGE,
        [
            ("Borrowing at 85% LTV, your only option is the 5-year fix, at 4.79% with no product fee.", "E"),
            ("At 60% LTV, the 5-year fix is 0.2 percentage points cheaper than the 2-year fix.", "E"),
            ("Repaying a 2-year fix in full during its second year triggers a 3% ERC.", "C"),
            ("You can borrow up to £2 million at 80% LTV.", "C"),
            ("Remortgage customers at 60% LTV get the same 4.29% 2-year rate.", "N"),
        ],
    ),
    (
        L_IT,
        [
            ("To get new software, you need sign-off from both your line manager and the Application Security team.", "E"),
            ("An exception allowing USB storage can last for up to 60 days.", "C"),
            ("You may enter customer data into a public AI tool if your manager agrees.", "C"),
            ("You can read your work email on a personal phone, but only through the Intune-managed Outlook app.", "E"),
            ("New software requests also need the CISO's approval.", "N"),
        ],
    ),
    (
        L_SICK,
        [
            ("Once you've passed probation, company sick pay can last up to 26 weeks in a rolling year, half of it at full salary and half at half salary.", "E"),
            ("You need a doctor's fit note from the 7th day of absence.", "C"),
            ("Occupational Health referrals are handled by an external provider.", "N"),
            ("Two separate absences in a rolling six months trigger an attendance review.", "C"),
            ("An employee who is still on probation gets only Statutory Sick Pay.", "E"),
            ("Your HR Business Partner attends every return-to-work meeting.", "N"),
        ],
    ),
    (
        L_CAR,
        [
            ("If a 23-year-old crashes your car, the excess is £550 plus any voluntary excess.", "E"),
            ("When your car is stolen, a 20-year-old driver still pays the extra £300 excess.", "C"),
            ("Using ClearView Glass for a windscreen replacement cuts the excess by £70.", "E"),
            ("If your car is written off, Premier customers get a hire car for up to 14 days.", "C"),
            ("Customers without Premier cover get a courtesy car if their car is stolen.", "C"),
            ("A courtesy car is provided while your car is repaired at a garage of your choice.", "N"),
        ],
    ),
    (
        L_COMPLAINTS,
        [
            ("A final response offering £1,500 in redress needs sign-off from a Team Manager and from the Head of Customer Relations.", "E"),
            ("Complaint Handlers work in the Customer Relations team in Leeds.", "C"),
            ("Payment services complaints have to be answered within 8 weeks.", "C"),
            ("Once a customer accepts our offer, redress is paid within five working days.", "E"),
            ("Written complaints are acknowledged by email within 2 business days.", "N"),
        ],
    ),
]

# Perturbation groups. "sents" are the base premise's sentences (each stands alone), joined with
# "joiner"; the order variant uses "order" (default: reversed). Each flip is
# (field, old, new, label): "old" must occur exactly once in the base premise or hypothesis.
PERT = [
    {
        "sents": [
            "Travel claims must be notified within 31 days of your return home.",
            "Each claim is subject to an excess of £75 per person.",
            "Claims are handled by Wayfarer Claims Services.",
        ],
        "hyp": "You'll pay a £75 excess for each person on every travel claim.",
        "flips": [
            ("premise", "an excess of £75", "an excess of £95", "C"),
            ("premise", "Each claim is subject", "Each baggage claim is subject", "N"),
        ],
    },
    {
        "sents": [
            "Staff passwords must be at least 14 characters long.",
            "Passwords are changed only when compromise is suspected.",
            "Multi-factor authentication is required for all remote access.",
        ],
        "hyp": "Logging in remotely always needs MFA.",
        "flips": [
            ("premise", "is required for all remote access", "is optional for remote access", "C"),
            ("premise", "for all remote access", "for all privileged accounts", "N"),
        ],
    },
    {
        "sents": [
            "The Gold card has an annual fee of £150.",
            "Gold cardholders get four free airport lounge visits a year.",
            "Additional Gold cardholders cost £25 each.",
        ],
        "hyp": "Adding two extra cardholders to a Gold card costs £50.",
        "flips": [
            ("premise", "£25 each", "£35 each", "C"),
            ("hypothesis", "costs £50", "costs £75", "C"),
        ],
    },
    {
        "sents": [
            "Payments over £10,000 require a second authoriser.",
            "The second authoriser must not be the person who keyed the payment.",
            "Both approvals are recorded in PayHub.",
        ],
        "hyp": "A £25,000 payment can't be approved by the same person who entered it.",
        "flips": [
            ("premise", "must not be the person", "may be the person", "C"),
            ("premise", "Payments over £10,000", "Payments over £50,000", "N"),
        ],
    },
    {
        "sents": [
            "A final response to a complaint must be sent within 8 weeks.",
            "Complaints are logged in CaseTrack on the day they are received.",
            "The Customer Relations Manager signs off every final response.",
        ],
        "hyp": "A final response has to go out within 56 days, and the Customer Relations Manager must approve it.",
        "flips": [
            ("premise", "within 8 weeks", "within 6 weeks", "C"),
            ("premise", "The Customer Relations Manager signs off", "The Head of Compliance signs off", "N"),
        ],
    },
    {
        "sents": [
            "Your mortgage offer was issued on 14 August 2026.",
            "Mortgage offers are valid for six months from the date of issue.",
            "Completing after the offer expires requires a new application.",
        ],
        "hyp": "Your offer is valid until 14 February 2027.",
        "flips": [
            ("premise", "valid for six months", "valid for three months", "C"),
            ("premise", "issued on 14 August 2026", "issued on 14 September 2026", "C"),
        ],
    },
    {
        "sents": [
            "Insiders may deal in Group shares only while a trading window is open.",
            "The Q3 2026 window opens on Wednesday 5 August 2026 and closes at the end of Thursday 3 September 2026.",
            "Every trade needs pre-clearance from Compliance.",
        ],
        "hyp": "The Q3 2026 trading window is still open on Friday 28 August 2026.",
        "flips": [
            ("premise", "Thursday 3 September 2026", "Tuesday 25 August 2026", "C"),
            ("hypothesis", "Friday 28 August 2026", "Friday 4 September 2026", "C"),
        ],
    },
    {
        "sents": [
            "Accidental damage is not included in standard contents cover.",
            "Contents cover includes theft from your home.",
            "The contents cover limit is £75,000.",
        ],
        "hyp": "If you have only standard contents cover, accidentally breaking your television isn't covered.",
        "flips": [
            ("premise", "is not included in standard", "is included in standard", "C"),
            ("premise", "Accidental damage is not included in standard contents cover.", "Accidental damage is not included in standard buildings cover.", "N"),
        ],
    },
    {
        "sents": [
            "Travel insurance is underwritten by Orbis Assurance Ltd.",
            "Travel claims are administered by Wayfarer Claims Services.",
            "Medical emergencies abroad are handled by the Orbis Assist helpline.",
        ],
        "hyp": "Wayfarer Claims Services deals with travel insurance claims.",
        "flips": [
            ("premise", "administered by Wayfarer Claims Services", "administered by Calder Claims Ltd", "C"),
        ],
    },
    {
        "sents": [
            "Definitions\n\"Valuables\" means jewellery, watches and works of art.",
            "Limits\nThe most we will pay for any single item of valuables is £2,500.",
        ],
        "joiner": "\n\n",
        "hyp": "A single watch is covered up to £2,500.",
        "flips": [
            ("premise", "jewellery, watches and works of art", "jewellery and works of art", "N"),
            ("premise", "is £2,500", "is £1,500", "C"),
        ],
    },
    {
        "sents": [
            "The Easy Saver pays 3.60% AER variable.",
            "Interest on the Easy Saver is paid monthly.",
            "You can withdraw from the Easy Saver at any time without notice.",
        ],
        "hyp": "You don't have to give notice to take money out of the Easy Saver, and interest is paid every month.",
        "flips": [
            ("premise", "at any time without notice", "with 30 days' notice", "C"),
            ("premise", "is paid monthly", "is paid annually", "C"),
        ],
    },
    {
        "sents": [
            "Employees must record gifts worth over £50 in the register.",
            "Gifts worth over £250 need prior approval from Compliance.",
            "Cash gifts must always be declined.",
        ],
        "hyp": "Before accepting a £300 gift from a client, you need Compliance to approve it.",
        "flips": [
            ("hypothesis", "a £300 gift", "a £200 gift", "N"),
            ("premise", "need prior approval from Compliance", "do not need prior approval from Compliance", "C"),
        ],
    },
    {
        "sents": [
            "Salary is paid on the last business day of the month.",
            "If payday falls on a bank holiday, salary is paid on the previous business day.",
            "Payslips are available in Workday two days before payday.",
        ],
        "hyp": "October 2026 salary is paid on Friday 30 October.",
        "flips": [
            ("hypothesis", "Friday 30 October", "Saturday 31 October", "C"),
            ("premise", "on the last business day of the month", "on the 25th of the month", "C"),
        ],
    },
    {
        "sents": [
            "Premier customers pay no foreign transaction fees.",
            "Premier requires a monthly pay-in of at least £5,000.",
            "Premier includes worldwide family travel insurance.",
        ],
        "hyp": "As a Premier customer, you won't be charged a fee when you pay in a foreign currency.",
        "flips": [
            ("premise", "pay no foreign transaction fees", "pay a 1% foreign transaction fee", "C"),
        ],
    },
    {
        "sents": [
            "Overpayments of up to 10% of the balance each year are free of early repayment charges.",
            "Early repayment charges apply only during the fixed-rate period.",
            "Overpayments can be made online.",
        ],
        "hyp": "You can overpay up to a tenth of your balance every year without an ERC.",
        "flips": [
            ("premise", "up to 10% of the balance", "up to 5% of the balance", "C"),
            ("hypothesis", "up to a tenth", "up to a fifth", "C"),
        ],
    },
    {
        "sents": [
            "Home insurance claims for escape of water have an excess of £350.",
            "All other home insurance claims have an excess of £100.",
            "The excess is deducted from the claim payment.",
        ],
        "hyp": "On a claim for a burst pipe, £350 is taken off what we pay you.",
        "flips": [
            ("premise", "an excess of £350", "an excess of £250", "C"),
            ("hypothesis", "a claim for a burst pipe", "a claim for storm damage", "C"),
        ],
    },
]

SLICES = [
    ("numeric", "num", NUMERIC),
    ("dates", "date", DATES),
    ("negation", "neg", NEGATION),
    ("entity", "ent", ENTITY),
    ("multi_passage", "multi", MULTI),
    ("paraphrase", "para", PARA),
    ("distractor", "dist", DIST),
    ("added_specifics", "spec", SPEC),
    ("long_passage", "long", LONG),
]
SLICE_NAMES = [s for s, _, _ in SLICES] + ["perturbation"]
PREFIX = {s: p for s, p, _ in SLICES}
PREFIX["perturbation"] = "pert"


def build():
    rows = []
    for slice_name, prefix, items in SLICES:
        n = 0
        for premise, hyps in items:
            if isinstance(premise, tuple):
                if len(premise) != 2:
                    raise SystemExit(f"{slice_name}: multi premise must have two passages")
                premise = "\n\n".join(premise)
            for hyp, lab in hyps:
                n += 1
                rows.append({"id": f"{prefix}-{n:03d}", "premise": premise, "hypothesis": hyp,
                             "label": LABELS[lab], "slice": slice_name})
    for g, grp in enumerate(PERT, 1):
        gid = f"pert-{g:03d}"
        joiner = grp.get("joiner", " ")
        sents = grp["sents"]
        premise = joiner.join(sents)
        hyp = grp["hyp"]
        base = {"id": gid, "premise": premise, "hypothesis": hyp, "label": "entailment",
                "slice": "perturbation", "group": gid}
        rows.append(base)
        for f, (field, old, new, lab) in enumerate(grp["flips"], 1):
            p, h = premise, hyp
            if field == "premise":
                p = _devset.replace_once(p, old, new, f"{gid}-f{f}")
            elif field == "hypothesis":
                h = _devset.replace_once(h, old, new, f"{gid}-f{f}")
            else:
                raise SystemExit(f"{gid}-f{f}: bad field {field}")
            rows.append({"id": f"{gid}-f{f}", "premise": p, "hypothesis": h, "label": LABELS[lab],
                         "slice": "perturbation", "group": gid, "perturbation": "flip"})
        order = grp.get("order", list(range(len(sents)))[::-1])
        if sorted(order) != list(range(len(sents))) or order == list(range(len(sents))):
            raise SystemExit(f"{gid}: bad order")
        rows.append({"id": f"{gid}-o", "premise": joiner.join(sents[i] for i in order), "hypothesis": hyp,
                     "label": "entailment", "slice": "perturbation", "group": gid,
                     "perturbation": "order"})
    return rows


if __name__ == "__main__":
    sys.exit(_devset.main(sys.argv[1:], OUT, build, {s: PREFIX[s] for s in SLICE_NAMES}))
