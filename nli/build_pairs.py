#!/usr/bin/env python3
# ruff: noqa: E501  (hand-written hypotheses are kept on one line each, so that each pair reads as a unit)
"""Write nli/pairs.jsonl, the labelled NLI evaluation set for guardrail's citation-support judges.

Every premise and hypothesis below was written by hand. The script only numbers the pairs, joins the
sentences of the perturbation groups, applies each group's single-field flip, and builds each group's
order variant by reversing its sentences (or passages). There is no randomness and no network access,
so running it twice gives byte-identical output:

    python nli/build_pairs.py            # writes nli/pairs.jsonl next to this file
    python nli/build_pairs.py --stats    # also prints counts per slice and label
    python nli/build_pairs.py --check    # also validates the written file

Labels: E = entailment (the premise alone fully supports the hypothesis), C = contradiction (the premise
states something incompatible with it), N = neutral (the premise is silent or supports only part of it).
See nli/README.md for the labelling rules.
"""
from __future__ import annotations

import argparse
import collections
import json
import pathlib
import sys

E, N, C = "entailment", "neutral", "contradiction"

# ---------------------------------------------------------------------------------------------------------------
# numeric: quantities, units, written numbers, exact conversions, "at least" / "up to" bounds
# ---------------------------------------------------------------------------------------------------------------
NUMERIC = [
    ("Full-time employees accrue 25 days of paid annual leave per calendar year, pro-rated for anyone who joins "
     "after 1 January. Part-time staff accrue leave in proportion to their contracted hours. Accrued leave is "
     "recorded in Workday on the first business day of each month.",
     [("Full-time staff get 30 days of paid annual leave each year.", C),
      ("A full-time employee accrues twenty-five days of paid leave over a calendar year.", E),
      ("Part-time employees accrue 12.5 days of annual leave per year.", N)]),
    ("Employees may carry over up to 5 unused days of annual leave into the next calendar year. Carried-over days "
     "must be used by 31 March or they are forfeited. Requests to carry over more than 5 days require HR Director "
     "approval and are granted only in exceptional circumstances such as extended medical leave.",
     [("Up to ten unused leave days can be carried into the following year without special approval.", C),
      ("Staff can roll over a maximum of five unused days without needing the HR Director to sign off.", E)]),
    ("The company matches employee contributions to the 401(k) plan dollar for dollar up to 5% of base salary. "
     "Matching contributions vest at 25% per year of service, so they are fully vested after four years. Bonuses "
     "and commissions are not included in the matching calculation.",
     [("The employer matches 401(k) contributions up to 50% of base salary.", C),
      ("Employer matching contributions in the 401(k) are fully vested once an employee has four years of service.", E),
      ("After two years of service, half of the employer's matching contributions are vested.", E),
      ("The 401(k) match is capped at $10,000 per year.", N)]),
    ("Employees can claim up to $1,200 per year toward home-office equipment such as monitors, chairs and desks. "
     "Claims must be submitted in SAP Concur with an itemised receipt. Laptops and phones are issued by IT and "
     "cannot be claimed under this allowance.",
     [("The annual home-office allowance is $12,000.", C),
      ("Each year, up to $1,200 can be reimbursed for things like a desk chair or a monitor.", E),
      ("Employees can claim up to $1,200 every six months for home-office equipment.", C)]),
    ("Priority 1 incidents must be acknowledged by the on-call engineer within 15 minutes and escalated to the "
     "incident commander if they are not mitigated within 60 minutes. Priority 2 incidents must be acknowledged "
     "within 4 hours during business hours.",
     [("On-call engineers have 30 minutes to acknowledge a P1 incident.", C),
      ("A P1 incident that is still unmitigated after an hour goes to the incident commander.", E),
      ("P2 incidents must be acknowledged within 4 hours, including at weekends.", N)]),
    ("Security patches rated critical must be applied to all production servers within 24 hours of release. "
     "High-severity patches must be applied within 7 days, and medium-severity patches within 30 days. Exceptions "
     "are tracked in the risk register and reviewed monthly by the CISO.",
     [("Critical patches have to be deployed to production servers within 48 hours.", C),
      ("High-severity patches must be installed within one week of their release.", E),
      ("Medium-severity patches must be applied within 30 days, and low-severity ones within 90 days.", N)]),
    ("Passwords for standard accounts must be at least 14 characters long and are not subject to periodic expiry. "
     "Privileged accounts require a minimum of 20 characters plus a hardware security key.",
     [("The minimum password length for standard accounts is 12 characters.", C),
      ("Passwords on privileged accounts need at least twenty characters.", E),
      ("Privileged accounts must use a YubiKey 5 series security key.", N)]),
    ("Purchase orders between $10,000 and $50,000 require approval from the budget owner and a second approver in "
     "Finance. Orders above $50,000 also require sign-off from the CFO. Orders below $10,000 can be approved by the "
     "budget owner alone.",
     [("A $35,000 purchase order needs approval from the budget owner and someone in Finance.", E),
      ("Only purchase orders above $100,000 need to be signed off by the CFO.", C),
      ("An $8,000 order can go through with just the budget owner's approval.", E)]),
    ("The mobile phone allowance is €40 per month for employees whose role requires them to be reachable outside "
     "office hours. The allowance is paid through payroll and is subject to income tax.",
     [("Eligible employees receive €480 a year as a phone allowance.", E),
      ("The phone allowance is €40 per month and is paid tax-free.", C)]),
    ("Each meeting room on the fourth floor of the Dublin office seats up to 8 people, except the Liffey Room, which "
     "seats 20 and has a ceiling-mounted projector. Rooms are booked through Outlook.",
     [("The Liffey Room can hold twenty people.", E),
      ("All meeting rooms on the fourth floor in Dublin seat at most eight people.", C),
      ("The Liffey Room seats 20 and is equipped for video conferencing.", N)]),
    ("New hires complete a probation period of three months, which may be extended once by up to a further three "
     "months if the manager documents specific performance concerns.",
     [("The probation period for new hires is 3 months.", E),
      ("Including any extension, probation cannot last longer than six months.", E)]),
    ("Business travellers may claim a daily meal allowance of £55 when staying overnight in London and £45 elsewhere "
     "in the UK. The allowance is not paid when meals are included in a conference registration fee.",
     [("The London overnight meal allowance is £45 per day.", C),
      ("For overnight stays in the UK outside London, the daily meal allowance is £45.", E),
      ("The meal allowance outside London is £45, rising to £50 in Edinburgh.", N)]),
    ("The annual learning budget is $2,000 per employee and can be used for courses, certifications and conference "
     "tickets. Unused budget does not roll over. Requests above $500 need manager approval in Workday Learning.",
     [("Any learning request costing more than $500 requires the manager's approval.", E),
      ("Employees have a $2,500 annual learning budget.", C),
      ("Learning requests above $500 need approval from both the manager and HR.", N)]),
    ("Backups of the customer database are taken every 6 hours and retained for 35 days. A full restore test is run "
     "once per quarter and the results are filed in Confluence.",
     [("The customer database is backed up four times a day.", E),
      ("Customer database backups are kept for five weeks.", E),
      ("Backups of the customer database are retained for 90 days.", C),
      ("A full restore of the customer database takes about four hours.", N)]),
    ("Employees receive a referral bonus of $3,000, or $5,000 for roles in the Security Engineering job family, when "
     "a candidate they referred is hired. The bonus is paid only once the new hire has completed 90 days.",
     [("A successful referral into a Security Engineering role earns a $3,000 bonus.", C),
      ("Referral bonuses are paid in the first payroll after the new hire's 90-day mark.", N),
      ("Referring a hire who leaves after two months does not earn a referral bonus.", E)]),
    ("Laptops are refreshed every four years for most staff and every three years for engineers in the Platform "
     "and Data teams, who receive machines with at least 32 GB of memory.",
     [("Platform engineers receive a new laptop every 36 months.", E),
      ("Data team engineers get laptops with 16 GB of memory.", C),
      ("Most staff receive a new laptop every three years.", C),
      ("Engineers outside the Platform and Data teams receive laptops with 16 GB of memory.", N)]),
    ("The parental leave policy provides 16 weeks of fully paid leave to the primary caregiver and 6 weeks to the "
     "secondary caregiver. Leave must be taken within 12 months of the birth or adoption.",
     [("Primary caregivers receive 112 days of fully paid leave.", E),
      ("Secondary caregivers get eight weeks of fully paid leave.", C),
      ("The 16 weeks of primary caregiver leave can be split into two blocks.", N)]),
    ("Guests must be registered at reception at least 24 hours before arrival; groups of more than 10 visitors must "
     "be registered 3 business days in advance.",
     [("A group of 12 visitors has to be registered three business days ahead.", E),
      ("Single visitors can be registered on the day they arrive.", C),
      ("Visitor groups larger than five need three business days' notice.", C)]),
    ("The Toronto office has 140 desks for 210 employees, and desks are booked through the Robin app. Each team is "
     "guaranteed a neighbourhood of at least 12 desks on its anchor day.",
     [("There are 70 more employees than desks at the Toronto office.", E),
      ("The Toronto office has one desk for every employee.", C),
      ("On its anchor day, each team is guaranteed up to 12 desks.", C)]),
    ("Sales commissions are paid at 8% of net new annual recurring revenue, rising to 12% for deals closed after a "
     "rep passes 120% of quota. Commissions are paid monthly in arrears.",
     [("Once a rep is above 120% of quota, new deals earn a 12% commission.", E),
      ("The base commission rate is 0.8% of net new ARR.", C),
      ("Commissions are capped at 200% of on-target earnings.", N)]),
    ("The standard notice period for employees at grade L4 and below is one month. From L5 upwards it is three "
     "months, and for executives it is six months.",
     [("An L6 employee must give a quarter of a year's notice.", E),
      ("Executives have a notice period of three months.", C),
      ("Contractors have a notice period of two weeks.", N)]),
]

# ---------------------------------------------------------------------------------------------------------------
# dates: dates, weekdays, months, quarters, years, deadlines, before / after
# ---------------------------------------------------------------------------------------------------------------
DATES = [
    ("Open enrollment for 2026 benefits runs from 3 November to 21 November 2025. Elections made during open "
     "enrollment take effect on 1 January 2026. Employees who miss the window keep their current elections unless "
     "they have a qualifying life event.",
     [("The open enrollment window closes on 21 November 2025.", E),
      ("Benefit elections made in open enrollment become effective on 1 December 2025.", C),
      ("Open enrollment for 2026 benefits opens in November 2025.", E),
      ("Open enrollment information sessions are held on Tuesdays and Thursdays.", N)]),
    ("Expense reports for travel must be submitted within 30 days of the trip's end date. Reports submitted after "
     "60 days are rejected automatically by Concur and require a VP exception.",
     [("Travel expense reports are due no later than 45 days after the trip ends.", C),
      ("A report filed 70 days after a trip ends will be rejected unless a VP grants an exception.", E),
      ("Expense reports for non-travel purchases are due within 60 days.", N)]),
    ("The fiscal year runs from 1 February to 31 January. Q1 therefore covers February, March and April, and budget "
     "submissions for the next fiscal year are due in the first week of December.",
     [("May falls in the second fiscal quarter.", E),
      ("The fiscal year ends on 31 December.", C),
      ("Fiscal Q3 covers August, September and October.", E),
      ("Budget submissions for the next fiscal year are due in the first week of November.", C),
      ("The CFO reviews budget submissions in the second week of December.", N)]),
    ("The Berlin office will move to its new premises at Friedrichstraße 68 over the weekend of 14-15 March 2026. "
     "Staff should work from home on Friday 13 March, and the new office opens on Monday 16 March.",
     [("The new Berlin office opens on Monday, 16 March 2026.", E),
      ("The Berlin office move takes place over the weekend of 7-8 March 2026.", C),
      ("The Berlin office relocates during the first quarter of 2026.", E),
      ("The new Berlin office opens on Friday 13 March 2026.", C)]),
    ("Quarterly access reviews for all production systems must be completed by the 15th day of the month following "
     "each quarter end. Reviews for Q2 2025 are therefore due on 15 July 2025.",
     [("The Q3 2025 access review has to be finished by 15 October 2025.", E),
      ("The Q2 2025 access review is due on 15 June 2025.", C),
      ("Access reviews are carried out in ServiceNow.", N)]),
    ("The SOC 2 Type II audit window for this year runs from 1 April to 30 September 2025, with the auditor's "
     "fieldwork scheduled for the last two weeks of October.",
     [("The SOC 2 audit period covers the second and third quarters of 2025.", E),
      ("Auditor fieldwork is planned for November 2025.", C),
      ("The SOC 2 audit window begins in Q1 2025.", C),
      ("The SOC 2 Type II audit for 2025 is performed by Schellman.", N)]),
    ("Salary increases from the annual review cycle take effect from 1 July and appear in the July payroll, which is "
     "paid on the 25th of the month. Promotions approved after 15 June are processed in the following cycle.",
     [("Raises from the review cycle are effective from 1 June.", C),
      ("A promotion approved on 20 June is processed in the next cycle.", E),
      ("Employees first see their raise in the pay they receive on 25 July.", E),
      ("July payroll is paid on the last working day of the month.", C),
      ("Annual bonuses from the review cycle are paid in the September payroll.", N)]),
    ("The on-call rotation for the Payments team changes hands every Monday at 10:00 CET. Handover notes must be "
     "posted in the #payments-oncall channel before the outgoing engineer signs off.",
     [("Payments on-call shifts switch over on Mondays at 10 a.m. CET.", E),
      ("The Payments rotation hands over every Friday afternoon.", C),
      ("The team lead reviews the handover notes every Monday.", N)]),
    ("Employees must complete the annual Code of Conduct training by 31 March. Anyone who has not completed it by "
     "30 April loses access to the expense system until it is done.",
     [("The Code of Conduct training deadline is 30 April.", C),
      ("An employee who still hasn't finished the training in May cannot use the expense system.", E),
      ("Missing the 31 March deadline immediately blocks access to the expense system.", C),
      ("Employees who miss the 31 March deadline get a reminder from their manager in the first week of April.", N)]),
    ("Version 4.2 of the Helix mobile app enters code freeze on Wednesday 4 June 2025 and is scheduled for release "
     "to the App Store on Tuesday 17 June 2025.",
     [("The Helix 4.2 code freeze begins in June 2025.", E),
      ("Helix 4.2 is due in the App Store on 17 July 2025.", C),
      ("The Helix 4.2 release is scheduled for a Thursday.", C),
      ("Helix 4.2 will be released on Google Play on the same day.", N)]),
    ("The London office is closed on UK bank holidays. In 2025 the summer bank holiday falls on Monday 25 August, "
     "and the office reopens on Tuesday 26 August.",
     [("The London office is closed on 25 August 2025.", E),
      ("The 2025 summer bank holiday is on Monday 18 August.", C),
      ("The London office is closed on the last Monday of August 2025.", E)]),
    ("Contracts with a value over £250,000 must be sent to Legal for review at least 10 business days before the "
     "intended signature date. Lower-value contracts can be reviewed by the Commercial team.",
     [("For a high-value contract to be signed on Friday 20 June 2025, Legal should receive it by Friday 6 June 2025 at the latest.", E),
      ("Contracts worth more than £250,000 must reach Legal at least five business days before signature.", C),
      ("Legal reviews must be requested through the Ironclad intake form.", N)]),
    ("Q3 2025 board materials are due to the Company Secretary by 5 September 2025. The board meets on 18 September "
     "2025 in Amsterdam.",
     [("The Q3 2025 board meeting is held in September.", E),
      ("Board materials for Q3 2025 are due on 5 October 2025.", C),
      ("The board meets in Amsterdam before the materials deadline.", C),
      ("The next board meeting after that will take place in December 2025.", N)]),
    ("The nightly batch always starts at 02:00 UTC, and daylight-saving changes do not affect it. Between late March "
     "and late October this corresponds to 03:00 in London.",
     [("During British Summer Time, the nightly batch starts at 3 a.m. London time.", E),
      ("The nightly batch starts at 02:00 London time all year round.", C)]),
    ("The price increase for Enterprise plans applies to renewals on or after 1 October 2025. Customers renewing "
     "before that date keep their current price for one further term.",
     [("A customer renewing on 15 September 2025 keeps the current price for another term.", E),
      ("The new Enterprise pricing applies to renewals from Q4 2025 onward.", E),
      ("Renewals on or after 1 September 2025 are charged the new price.", C),
      ("The Enterprise price increase taking effect in October 2025 is 7%.", N)]),
    ("New starters in the Lisbon office begin on the first or third Monday of the month. Their laptops are shipped "
     "to arrive no later than the Thursday before.",
     [("New hires in Lisbon can start on any Monday.", C),
      ("A Lisbon new starter's laptop arrives at least four days before their first day.", E),
      ("Lisbon new starters spend their first week at the Madrid office.", N)]),
    ("The 2025 employee engagement survey opens on Monday 22 September and closes at 17:00 on Friday 3 October. "
     "Team-level results are shared with managers in the first week of November.",
     [("The engagement survey is open for two working weeks.", E),
      ("The survey closes on Friday 10 October.", C),
      ("Managers receive their team results in November 2025.", E),
      ("Company-wide results are presented at the December town hall.", N)]),
]

# ---------------------------------------------------------------------------------------------------------------
# negation: negation and modality (may / must, cannot, not required, never, only if, optional / mandatory)
# ---------------------------------------------------------------------------------------------------------------
NEGATION = [
    ("Employees may work from abroad for up to 20 working days per calendar year, provided they notify their "
     "manager in advance. Working from a country where the company has no legal entity is not permitted for longer "
     "than that period.",
     [("Employees must get HR approval before working abroad for a week.", N),
      ("Staff are not allowed to work from abroad at all.", C),
      ("Telling your manager beforehand is a condition for working from abroad.", E)]),
    ("Installing software that is not listed in the Self Service catalogue is prohibited on company-managed Macs "
     "unless IT Security has granted a written exception.",
     [("Employees are free to install any software they like on their company Mac.", C),
      ("Without a written exception from IT Security, software outside the Self Service catalogue must not be installed on managed Macs.", E),
      ("Software outside the catalogue may be installed as long as the employee's manager approves it.", C)]),
    ("Receipts are not required for individual expenses under $25, except for alcohol, which always requires an "
     "itemised receipt.",
     [("You don't need a receipt to claim a $15 taxi ride.", E),
      ("A $20 bar bill can be claimed without a receipt.", C),
      ("Every expense needs a receipt, whatever the amount.", C),
      ("Receipts for expenses of $25 or more must be uploaded within ten days.", N)]),
    ("Multi-factor authentication is mandatory for every account that can access customer data. SMS codes are not "
     "an accepted second factor; employees must use Okta Verify or a FIDO2 security key.",
     [("MFA is optional for accounts that can access customer data.", C),
      ("Text-message codes cannot be used as the second factor.", E),
      ("Employees may choose between SMS codes and Okta Verify for their second factor.", C),
      ("Accounts that cannot access customer data do not need MFA.", N)]),
    ("Attendance at the quarterly town hall is optional. Recordings are posted on the intranet within two days, and "
     "questions can be submitted in advance through Slido.",
     [("Employees are required to attend the quarterly town hall.", C),
      ("Nobody is obliged to attend the quarterly town hall live.", E),
      ("Questions for the town hall can only be asked live during the meeting.", C),
      ("Employees who miss the town hall must watch the recording within a week.", N)]),
    ("Customer data must never be copied to personal devices or personal cloud storage accounts, even temporarily. "
     "Approved transfers use the company's managed SharePoint or the SFTP gateway.",
     [("Briefly storing customer data on a personal laptop is acceptable.", C),
      ("Customer data may not be placed in a personal Dropbox account.", E),
      ("The SFTP gateway is the only approved way to transfer customer data.", C)]),
    ("Employees are not required to use the corporate travel agency for rail bookings within the same country, but "
     "all flights must be booked through Navan.",
     [("Domestic train tickets don't have to be booked through the travel agency.", E),
      ("Flights may be booked directly with the airline.", C),
      ("Cross-border rail journeys can also be booked outside the travel agency.", N)]),
    ("A manager may approve overtime of up to 10 hours per month; anything beyond that needs Director approval. "
     "Overtime cannot be approved retroactively.",
     [("Overtime can be approved after the hours have already been worked.", C),
      ("Approving 12 hours of overtime in a month requires a Director.", E),
      ("Managers are not able to approve more than 10 hours of overtime a month on their own.", E),
      ("Approved overtime is paid at 1.5 times the hourly rate.", N)]),
    ("Relocation support is available only to employees who have completed 12 months of continuous service and whose "
     "move is requested by the business.",
     [("Every employee with 12 months of service is entitled to relocation support.", N),
      ("An employee with eight months of service cannot receive relocation support.", E),
      ("Employees who move for personal reasons after 12 months of service qualify for relocation support.", C)]),
    ("Visitors must be escorted at all times in the data centre. Photography is not allowed anywhere on the "
     "data-centre floor, and visitors may not bring bags past the security vestibule.",
     [("Visitors can walk around the data centre unaccompanied once they have signed in.", C),
      ("Taking photos on the data-centre floor is forbidden.", E),
      ("Visitors may bring a laptop bag onto the data-centre floor.", C),
      ("Visitors may make phone calls on the data-centre floor.", N)]),
    ("Unless the customer has opted in, support engineers must not access the contents of a customer's workspace. "
     "Metadata such as workspace size and plan may be viewed without opt-in.",
     [("Support engineers can look at a customer's plan without the customer opting in.", E),
      ("Support engineers are allowed to open a customer's files without any opt-in.", C),
      ("Support engineers may not access workspace contents even when the customer has opted in.", C)]),
    ("The annual performance self-assessment is mandatory for all employees who joined before 1 October. Employees "
     "who joined later may submit one but are not expected to.",
     [("The self-assessment is optional for someone who joined on 15 November.", E),
      ("An employee who joined in March must complete the self-assessment.", E),
      ("Employees who joined after 1 October are not allowed to submit a self-assessment.", C),
      ("Employees who joined after 1 October complete a 90-day review instead of the self-assessment.", N)]),
    ("No employee may approve an expense report, purchase order or timesheet that they submitted themselves.",
     [("Employees are prohibited from approving their own timesheets.", E),
      ("Self-approval is permitted for purchase orders below $500.", C),
      ("Managers may approve the timesheets of their direct reports.", N)]),
    ("Production database credentials are never stored in source code; services retrieve them at runtime from "
     "HashiCorp Vault.",
     [("It's acceptable to hard-code production database passwords if the repository is private.", C),
      ("Services fetch production database credentials from Vault when they run.", E),
      ("Staging database credentials are also kept out of source code.", N)]),
    ("Contractors are not eligible for the employee stock purchase plan, and they may not participate in the annual "
     "bonus scheme.",
     [("Contractors cannot join the ESPP.", E),
      ("Contractors are eligible for the annual bonus.", C),
      ("Contractors are not covered by the company's health insurance.", N)]),
    ("Employees may use a personal phone for work email only if they enrol it in Intune. Company phones are issued only to "
     "roles with an on-call duty.",
     [("Employees must use their personal phone for work email.", N),
      ("A personal phone that isn't enrolled in Intune cannot be used for work email.", E),
      ("Company phones are issued to every employee who asks for one.", C)]),
    ("Employees may expense a second monitor for home working once every three years. A docking station is not "
     "included and must be requested from IT.",
     [("Employees are obliged to buy a second monitor for home working.", N),
      ("A second monitor for working from home can be expensed every three years.", E),
      ("A docking station can be expensed together with the monitor.", C)]),
    ("Managers should not discuss an employee's medical condition with the team. Sharing health information is "
     "permitted only with the employee's written consent or when HR confirms a legal obligation.",
     [("Managers may tell the team about a colleague's illness if the colleague has given written consent.", E),
      ("Managers are free to share a colleague's diagnosis with the team to plan cover.", C),
      ("Verbal consent from the employee is enough to share their health information.", C)]),
]

# ---------------------------------------------------------------------------------------------------------------
# entity: swapped cities, teams, products, roles, companies, systems
# ---------------------------------------------------------------------------------------------------------------
ENTITY = [
    ("The Berlin office is closed on 3 October for German Unity Day, while the London and Dublin offices remain open "
     "as usual.",
     [("The London office closes on 3 October.", C),
      ("The Munich office is closed on 3 October.", N),
      ("The Dublin office is open on German Unity Day.", E)]),
    ("Single sign-on for all internal applications is provided by Okta. Legacy Azure AD accounts were decommissioned "
     "in January 2025 and can no longer be used to sign in.",
     [("Azure AD is the current single sign-on provider for internal applications.", C),
      ("Employees sign in to internal tools through Okta.", E),
      ("Google Workspace accounts were also decommissioned in January 2025.", N)]),
    ("Expense reports above €5,000 must be approved by the Finance Director after the line manager has approved "
     "them.",
     [("An expense report of €6,000 needs sign-off from the Finance Director.", E),
      ("The CFO approves expense reports above €5,000.", N),
      ("Expense reports above €5,000 need only the line manager's approval.", C)]),
    ("Incidents affecting payments are paged through PagerDuty to the Payments SRE rotation; Opsgenie is used only by "
     "the Data Platform team for its batch pipelines.",
     [("Payments incidents are paged via Opsgenie.", C),
      ("The Data Platform team uses Opsgenie for its batch pipelines.", E),
      ("The Identity team also uses Opsgenie.", C)]),
    ("Our external auditor for fiscal year 2025 is KPMG. Deloitte provides tax advisory services but has no role in "
     "the audit.",
     [("Deloitte audits the FY2025 financial statements.", C),
      ("KPMG is the external auditor for FY2025.", E),
      ("EY provides tax advisory services to the company.", N)]),
    ("Laptops for the Sales team are managed with Microsoft Intune, while Engineering uses Jamf for its MacBooks.",
     [("Engineering's MacBooks are managed with Jamf.", E),
      ("Sales laptops are managed with Jamf.", C),
      ("Marketing laptops are managed with Intune.", N)]),
    ("The Singapore office is the regional hub for APAC customer support and operates from 08:00 to 20:00 SGT. "
     "Escalations outside those hours are routed to the Sydney team.",
     [("After-hours APAC escalations go to the Sydney team.", E),
      ("Out-of-hours APAC escalations are routed to Bangalore.", C),
      ("Sydney is the regional hub for APAC customer support.", C)]),
    ("Requests for new SaaS tools are submitted through the Coupa intake form and reviewed by Procurement and the "
     "Security Review Board. Tools that process personal data also need a DPIA signed off by the Data Protection "
     "Officer.",
     [("The Data Protection Officer signs off DPIAs for tools that process personal data.", E),
      ("New SaaS tool requests are submitted through ServiceNow.", C),
      ("The General Counsel signs off DPIAs.", N)]),
    ("Salary reviews for employees in the Warsaw office are handled by the Kraków-based HR shared-services team.",
     [("The HR team in Kraków handles salary reviews for Warsaw staff.", E),
      ("Warsaw salary reviews are handled by HR in Warsaw.", C)]),
    ("Hotel bookings in New York must use the negotiated rate at the Marriott Marquis; in Chicago, employees should "
     "book the Hyatt Regency.",
     [("Employees travelling to Chicago should stay at the Marriott Marquis.", C),
      ("Travellers to New York are expected to use the Marriott Marquis negotiated rate.", E),
      ("In Boston, the preferred hotel is the Hyatt Regency.", N)]),
    ("The Head of Internal Audit reports to the Audit Committee chair, not to the CFO, to preserve independence.",
     [("Internal Audit's head reports to the CFO.", C),
      ("The Audit Committee chair is the person the Head of Internal Audit reports to.", E)]),
    ("Customer invoices are generated in NetSuite on the first business day of each month and emailed automatically. "
     "Salesforce is the system of record for contracts but does not issue invoices.",
     [("Salesforce issues customer invoices.", C),
      ("Contracts are held in Salesforce as the system of record.", E),
      ("NetSuite is the system of record for contracts.", C)]),
    ("Access requests for the Snowflake analytics warehouse are approved by the data owner named in the catalogue, "
     "and provisioning is done by the Data Platform team.",
     [("The Security team provisions access to Snowflake.", C),
      ("A data owner approves Snowflake access requests.", E),
      ("Access to the BigQuery warehouse is approved by the data owner.", N)]),
    ("The Amsterdam office's parking garage is reserved for employees with a disability and for visiting customers; "
     "other staff are encouraged to cycle or use public transport.",
     [("Visiting customers may park in the Amsterdam office garage.", E),
      ("Any Amsterdam employee can park in the office garage.", C),
      ("The Rotterdam office's garage is reserved for visiting customers.", N)]),
    ("The quarterly pricing committee is chaired by the Chief Revenue Officer, and the VP of Finance acts as "
     "secretary. Discounts above 30% must be approved by the committee.",
     [("The VP of Finance chairs the pricing committee.", C),
      ("The Chief Revenue Officer chairs the quarterly pricing committee.", E),
      ("The Chief Product Officer is a member of the pricing committee.", N)]),
]

# ---------------------------------------------------------------------------------------------------------------
# multi_passage: two passages (joined with a blank line); positives need both of them
# ---------------------------------------------------------------------------------------------------------------
MULTI_PASSAGE = [
    (("Employees at grade L5 and above are classified as senior staff for the purposes of the travel policy. The "
      "grade of each employee is shown on their Workday profile.",
      "Senior staff may book business class for flights with a scheduled duration of more than six hours. All other "
      "flights are booked in economy."),
     [("An L6 employee on an eight-hour flight may book business class.", E),
      ("An L6 employee may book business class for a four-hour flight.", C),
      ("An L4 employee on a seven-hour flight may book business class.", C)]),
    (("The Dublin office belongs to the EMEA-West region, together with the offices in Lisbon and Madrid.",
      "All offices in the EMEA-West region close at 14:00 on the last working day before Christmas."),
     [("The Dublin office closes at 2 p.m. on the last working day before Christmas.", E),
      ("The Dublin office closes at noon on the last working day before Christmas.", C),
      ("The Milan office closes at 14:00 on the last working day before Christmas.", N)]),
    (("Systems that store or process cardholder data are classified as Tier 0 in the asset inventory.",
      "Tier 0 systems must be penetration-tested at least twice a year by an external firm, and findings rated high "
      "must be fixed within 30 days."),
     [("Systems holding cardholder data must have an external penetration test at least twice a year.", E),
      ("Systems storing cardholder data only need an annual penetration test.", C),
      ("Tier 0 penetration tests are carried out by NCC Group.", N)]),
    (("The Payments API is owned by the Checkout team, which also owns the basket and promotions services.",
      "The Checkout team's on-call engineer must join any Sev-1 bridge within 10 minutes of being paged."),
     [("For a Sev-1 on the Payments API, the owning team's on-call engineer has to join the bridge within 10 minutes of the page.", E),
      ("A Sev-1 on the Payments API requires the Checkout on-call engineer to join within 30 minutes.", C),
      ("The Payments API's on-call engineer must also write the postmortem within five days.", N)]),
    (("Meera Iyer was promoted to Director of Procurement on 1 March 2025, succeeding Tom Becker.",
      "Contracts above $250,000 must be co-signed by the Director of Procurement before they are executed."),
     [("Since March 2025, Meera Iyer has been the person who co-signs contracts above $250,000.", E),
      ("Tom Becker is the current Director of Procurement.", C),
      ("Meera Iyer also approves new suppliers in Coupa.", N)]),
    (("Employees hired before 1 January 2023 remain on the legacy pension scheme. Everyone hired on or after that "
      "date joins the new defined-contribution plan.",
      "The legacy pension scheme has an employer contribution of 8% of base salary."),
     [("Someone hired in June 2021 receives an 8% employer pension contribution.", E),
      ("Someone hired in June 2023 receives an 8% employer pension contribution.", N),
      ("Employees hired in 2022 get a 6% employer pension contribution.", C)]),
    (("The VPN concentrator in Frankfurt serves all remote users located in Germany, Austria and Switzerland.",
      "The Frankfurt VPN concentrator will be offline for maintenance from 22:00 to 23:30 CET on Saturday 12 April."),
     [("The VPN concentrator serving users in Austria will be offline on the evening of Saturday 12 April.", E),
      ("The concentrator serving Swiss users is down from 21:00 to 22:30 CET on 12 April.", C),
      ("Remote users in Italy are affected by the 12 April VPN maintenance.", N)]),
    (("The Customer Success organisation includes the Onboarding, Renewals and Support teams.",
      "Every team in the Customer Success organisation must complete the Salesforce data-handling course by 30 June."),
     [("The Renewals team has to finish the Salesforce data-handling course by 30 June.", E),
      ("The Sales Development team must complete the Salesforce data-handling course by 30 June.", N),
      ("The Onboarding team has until 31 July to complete the Salesforce data-handling course.", C)]),
    (("Project Atlas is classified as Confidential - Restricted.",
      "Documents classified as Confidential - Restricted may not be shared with external parties unless they have "
      "signed an NDA and the document owner has approved the sharing."),
     [("Atlas documents cannot be shared with an external partner that has not signed an NDA.", E),
      ("Atlas documents may be shared with an external partner as soon as an NDA is signed, without further approval.", C),
      ("Atlas documents may be shared freely with contractors who have a company email account.", N)]),
    (("A change to a production firewall rule is a standard change if it matches a pre-approved template in "
      "ServiceNow; otherwise it is a normal change.",
      "Normal changes must be reviewed by the Change Advisory Board, which meets every Wednesday at 15:00."),
     [("A firewall rule change that matches none of the pre-approved templates needs Change Advisory Board review.", E),
      ("Every production change, standard or not, goes to the Change Advisory Board.", N),
      ("The Change Advisory Board meets every Thursday.", C)]),
    (("Employees in the Sales job family are eligible for a company car once they reach the Account Executive II "
      "level.",
      "Priya Nair was promoted from Account Executive I to Account Executive II in the Sales job family in February."),
     [("Priya Nair is now eligible for a company car.", E),
      ("Priya Nair has been assigned a BMW as her company car.", N),
      ("Priya Nair is still at the Account Executive I level.", C)]),
    (("Orders shipped from the Rotterdam warehouse are handled under the EU returns process.",
      "Under the EU returns process, customers have 30 days from delivery to return an item for a full refund."),
     [("A customer whose order came from Rotterdam has 30 days after delivery to send it back for a full refund.", E),
      ("Customers have only 14 days to return items shipped from Rotterdam.", C),
      ("Return shipping for Rotterdam orders is free of charge.", N)]),
    (("The 2025 sales kick-off will be held in the same city that hosted the 2023 event.",
      "The 2023 sales kick-off took place in Lisbon, at the Centro de Congressos."),
     [("The 2025 sales kick-off takes place in Lisbon.", E),
      ("The 2025 sales kick-off will be held at the Centro de Congressos.", N),
      ("The 2025 sales kick-off will be held in Porto.", C)]),
    (("All tier-1 vendors must provide a current SOC 2 Type II report every year.",
      "Cloudline, our primary CDN provider, is designated a tier-1 vendor."),
     [("Cloudline has to supply an up-to-date SOC 2 Type II report each year.", E),
      ("Cloudline is exempt from providing SOC 2 reports.", C),
      ("Cloudline's most recent SOC 2 report contained no exceptions.", N)]),
    (("The standard working week in the Bangalore office is Monday to Friday, 45 hours in total.",
      "In India, hours worked beyond the standard working week are compensated at 1.5 times the hourly rate."),
     [("A Bangalore employee who works 50 hours in a week is paid time-and-a-half for five of them.", E),
      ("Bangalore employees are paid double time for hours after 45 in a week.", C),
      ("Bangalore employees can take unpaid leave on Saturdays.", N)]),
    (("Ana Costa leads the Identity team, which owns Okta, the LDAP directory and the badge system.",
      "Team leads must approve any new service account created for their team's systems."),
     [("A new service account for the badge system needs Ana Costa's approval.", E),
      ("Ana Costa must approve every new service account in the company.", N),
      ("A new service account for the LDAP directory can be created without any approval.", C)]),
    (("The Zurich office falls under the Swiss entity, Corvane Switzerland AG.",
      "Corvane Switzerland AG pays a 13th-month salary in November to all permanent employees."),
     [("Permanent employees in the Zurich office receive a 13th-month salary in November.", E),
      ("The 13th-month salary for Zurich employees is paid in December.", C),
      ("Employees in the Geneva office receive a 13th-month salary.", N)]),
    (("Incidents are rated Sev-1 when more than 25% of customers are affected.",
      "For every Sev-1 incident, a public postmortem must be published on the status page within five business days."),
     [("An outage affecting 40% of customers requires a public postmortem within five business days.", E),
      ("An outage affecting 10% of customers requires a public postmortem within five business days.", N),
      ("An outage affecting 40% of customers needs a public postmortem within ten business days.", C)]),
]

# ---------------------------------------------------------------------------------------------------------------
# paraphrase: entailed claims worded very differently; non-entailed paraphrases that add or bend something
# ---------------------------------------------------------------------------------------------------------------
PARAPHRASE = [
    ("Staff who wish to take more than ten consecutive working days of leave must submit the request at least four "
     "weeks in advance.",
     [("Anyone planning a break of over ten working days in a row needs to ask at least 28 days beforehand.", E),
      ("Leave of more than ten working days must be requested four weeks ahead and approved by HR.", N)]),
    ("The IT Service Desk resets forgotten passwords only after verifying the caller's identity through a push "
     "notification to their registered device.",
     [("Before resetting a password, the Service Desk confirms who is calling by sending a push to their enrolled device.", E),
      ("The Service Desk will reset a password for anyone who can quote the employee's ID number.", C)]),
    ("Invoices are paid 45 days after the end of the month in which they are received, unless the supplier contract "
     "specifies otherwise.",
     [("By default, a supplier is paid 45 days after the close of the month its invoice arrived in.", E),
      ("Suppliers are always paid within 45 days of the invoice being received.", C)]),
    ("Any suspected phishing email should be reported using the 'Report Phish' button in Outlook rather than "
     "forwarded to colleagues. The Security Operations team reviews every report within one business day.",
     [("Rather than passing a suspicious email on to coworkers, use Outlook's Report Phish button; Security Operations looks at each report within a working day.", E),
      ("Security Operations replies to the person who reported the email within one business day.", N)]),
    ("The hiring manager, not the recruiter, is accountable for making the final offer decision.",
     [("Final offer decisions rest with the hiring manager.", E),
      ("The recruiter and the hiring manager decide jointly on the final offer.", C)]),
    ("Because of the ongoing renovation, the cafeteria on level 2 of the Austin office will be closed until the end "
     "of August, and a food truck will operate in the north parking lot on weekdays.",
     [("While Austin's level-2 cafeteria is shut for renovation through August, a food truck serves the north lot Monday to Friday.", E),
      ("A food truck will operate in the north parking lot every day of the week, weekends included.", C),
      ("The food truck is free for employees while the cafeteria is closed.", N)]),
    ("Data retention: application logs are deleted after 90 days, except audit logs, which are kept for seven years.",
     [("Audit logs are the exception to the 90-day deletion of logs and are held for seven years.", E),
      ("All logs, audit logs included, are deleted after 90 days.", C),
      ("Audit logs are kept for seven years in an immutable S3 bucket.", N)]),
    ("If a laptop is lost or stolen, the employee must report it to the Service Desk within 24 hours so that the "
     "device can be wiped remotely.",
     [("A missing laptop has to be reported to the Service Desk within a day, which allows it to be wiped remotely.", E),
      ("Employees must file a police report within 24 hours of a laptop theft.", N)]),
    ("Requests for a standing desk are handled by Facilities and are approved automatically when accompanied by an "
     "occupational health recommendation.",
     [("Facilities approves a standing-desk request automatically if an occupational health recommendation comes with it.", E),
      ("Standing-desk requests are granted only with an occupational health recommendation.", N)]),
    ("The Procurement team negotiates all software contracts worth more than $25,000 a year; smaller purchases can "
     "be made by budget owners on a company card.",
     [("Budget owners may put software costing under $25,000 a year on a company card.", E),
      ("Budget owners negotiate software contracts above $25,000 a year themselves.", C)]),
    ("Engineering interns receive the same equipment as full-time engineers, but their access to production systems "
     "is read-only and expires on their last day.",
     [("Interns in engineering get the same kit as permanent engineers and only have read access to production, which ends when the internship does.", E),
      ("Engineering interns can deploy to production with a mentor's approval.", C)]),
    ("Managers are expected to hold a one-to-one with each direct report at least every two weeks, and to document "
     "development goals twice a year in Lattice.",
     [("Development goals are written up in Lattice every six months, and managers meet each report individually at least fortnightly.", E),
      ("Managers are expected to hold a one-to-one with each direct report every week.", C),
      ("Development goals are documented twice a year in Lattice and reviewed by HR Business Partners.", N)]),
    ("Slack messages in public channels are retained for two years; direct messages are retained for 90 days and "
     "then deleted.",
     [("Direct messages in Slack disappear after ninety days, whereas public channel messages stay for two years.", E),
      ("Slack direct messages are kept for two years.", C)]),
    ("The company will cover the cost of a professional certification exam once per employee per year, provided the "
     "certification is relevant to the employee's current role. Retakes are not covered.",
     [("Each year an employee can have one role-relevant certification exam paid for, but the company won't fund a retake.", E),
      ("The company pays for up to two certification exam attempts per year.", C),
      ("The company also pays for study materials for the certification.", N)]),
    ("When a customer's contract lapses, their data is kept in read-only mode for 30 days and then permanently "
     "deleted, unless they renew within that period.",
     [("Lapsed customers get a 30-day read-only window, and renewing within it saves their data from permanent deletion.", E),
      ("Data belonging to lapsed customers is archived for a year before it is deleted.", C),
      ("Lapsed customers can export their data during the 30-day window.", N)]),
    ("Our offices are cleaned every evening after 18:00. Desks that are not cleared by then are not cleaned, and "
     "personal items left overnight are the owner's responsibility.",
     [("If you leave things on your desk past six in the evening, the cleaners will skip it.", E),
      ("Desks are cleaned every evening whether or not they have been cleared.", C),
      ("The offices are cleaned every evening by an external contractor, Atalian.", N)]),
    ("Travel to countries rated 'high risk' by our security provider requires approval from the Corporate Security "
     "team at least ten days before departure. Travellers must also enrol in the tracking service for the duration "
     "of the trip.",
     [("Anyone heading to a high-risk country needs Corporate Security's sign-off no later than ten days before departure and must stay enrolled in tracking for the whole trip.", E),
      ("Trips to high-risk countries need Corporate Security approval unless they last less than three days.", N),
      ("Travel to high-risk countries can be approved by the traveller's manager.", C)]),
    ("Unused budget at the end of the fiscal year is returned to the central pool; departments cannot carry it "
     "forward.",
     [("Departments lose any budget they haven't spent by year end, as it goes back to the central pool.", E),
      ("Departments may carry forward up to 10% of unspent budget.", C)]),
    ("Code that handles payment card numbers is reviewed by a member of the Application Security team before it is "
     "merged.",
     [("Before any merge, an Application Security reviewer checks code that deals with card numbers.", E),
      ("Code that handles payment card numbers is reviewed by two members of Application Security.", N)]),
]

# ---------------------------------------------------------------------------------------------------------------
# distractor: same topic, different fact (the claim's specifics are absent); a few entailed controls
# ---------------------------------------------------------------------------------------------------------------
DISTRACTOR = [
    ("The Munich office offers secure bicycle storage in the basement with 60 spaces, and changing rooms with "
     "showers on the ground floor. Access to both is by employee badge between 06:00 and 22:00.",
     [("The Munich office provides 40 underground parking spaces for cars.", N),
      ("Munich employees can use showers on the ground floor.", E),
      ("Employees can reserve a locker in the Munich changing rooms for a monthly fee.", N)]),
    ("The corporate card may be used for travel, client entertainment and approved conference fees. Cards are "
     "issued by American Express, and statements close on the 20th of each month.",
     [("The corporate card has a monthly spending limit of $10,000.", N),
      ("Cash withdrawals with the corporate card incur a 3% fee.", N),
      ("Approved conference fees can be paid with the corporate card.", E)]),
    ("Sick leave of up to three consecutive days can be self-certified in Workday. Absences longer than that require "
     "a doctor's note, which should be uploaded within five days of returning to work.",
     [("Employees receive ten paid sick days per year.", N),
      ("A two-day absence due to illness can be self-certified.", E),
      ("Sick pay is reduced to 80% after the third week of absence.", N)]),
    ("The quarterly business review with each enterprise customer is led by the account manager and must include a "
     "product roadmap preview approved by Product Marketing.",
     [("Quarterly business reviews must be scheduled at least three weeks in advance.", N),
      ("Each quarterly business review includes a preview of the product roadmap.", E)]),
    ("Our data-loss-prevention tool scans outgoing email for credit card numbers and national ID numbers, and blocks "
     "messages that contain more than five matches.",
     [("The DLP tool also scans files uploaded to Google Drive.", N),
      ("Outbound emails with more than five credit card numbers are blocked.", E),
      ("The DLP tool was rolled out in 2023 and is supplied by Symantec.", N)]),
    ("Employees in the Toronto office can join the group RRSP after three months of service; the employer matches "
     "contributions up to 4% of salary.",
     [("Toronto employees receive a $500 annual wellness allowance.", N),
      ("Employer contributions to the group RRSP vest after two years.", N)]),
    ("Kubernetes clusters in the production environment are upgraded within 60 days of a new minor release becoming "
     "available on EKS. Upgrades are performed in staging first and must soak there for at least one week.",
     [("Production clusters currently run Kubernetes 1.29.", N),
      ("A new minor version has to run in staging for a week before it reaches production.", E),
      ("Production node pools autoscale between 3 and 30 nodes.", N)]),
    ("The onboarding buddy programme pairs every new hire with a colleague from a different team for their first 60 "
     "days. Buddies receive a $100 dinner voucher as a thank-you.",
     [("New hires are expected to meet their buddy at least once a week.", N),
      ("Buddies must have at least one year of tenure at the company.", N)]),
    ("Conference travel must be pre-approved by the department head if the total cost, including registration, "
     "exceeds $3,000.",
     [("Employees may attend at most two conferences per year.", N),
      ("Employees who speak at a conference can fly business class.", N)]),
    ("The Warsaw office has two kitchens on each floor and a coffee machine that is serviced every Tuesday. Fruit is "
     "delivered on Mondays and Thursdays.",
     [("The Warsaw office provides free lunch on Fridays.", N),
      ("Fresh fruit arrives at the Warsaw office twice a week.", E)]),
    ("Customer-facing status updates during an outage are posted on status.corvane.com every 30 minutes by the "
     "Incident Communications lead.",
     [("Customers are also notified of outages by SMS.", N),
      ("A customer-facing postmortem is published within five business days of an outage.", N)]),
    ("Salary bands are reviewed by the Compensation team every October using benchmark data from Radford. The bands "
     "are published internally on the HR portal.",
     [("Salary bands rose by 3.5% on average this year.", N),
      ("Employees can look up the salary bands on the HR portal.", E)]),
    ("The 2025 security awareness campaign includes a monthly phishing simulation. Employees who click a simulated "
     "phishing link are enrolled in a 15-minute refresher module.",
     [("Employees who fail three phishing simulations lose email access.", N),
      ("Clicking a simulated phishing link leads to a short refresher training.", E)]),
    ("Printers on every floor of the Lisbon office support badge-release printing; jobs that are not released within "
     "12 hours are deleted.",
     [("Colour printing in the Lisbon office requires manager approval.", N),
      ("Unreleased print jobs in Lisbon are removed after half a day.", E)]),
    ("The internal mobility policy allows employees to apply for open roles after 12 months in their current "
     "position. The current manager must be informed before the first interview.",
     [("Internal candidates are guaranteed a first-round interview.", N),
      ("Internal transfers come with a 5% salary increase.", N)]),
    ("Meeting rooms in the Singapore office can be booked up to 30 days in advance. Recurring bookings are reviewed "
     "every quarter, and rooms not checked into within 10 minutes are released.",
     [("Meeting rooms in Singapore can be booked for a maximum of three hours.", N),
      ("A Singapore meeting room is released if nobody checks in within ten minutes.", E)]),
    ("The engineering career framework defines six levels, from E1 to E6. Promotions to E5 and above are decided by "
     "a calibration committee that meets twice a year.",
     [("Promotion to E4 requires approval from a director.", N),
      ("Engineers must spend at least two years at E3 before being promoted to E4.", N)]),
    ("The company's Azure tenant is split into three management groups: production, non-production and sandbox. "
     "Sandbox subscriptions are deleted automatically after 30 days.",
     [("Production subscriptions must be tagged with a cost centre.", N),
      ("Non-production subscriptions are deleted after 90 days.", N)]),
]

# ---------------------------------------------------------------------------------------------------------------
# added_specifics: the claim adds a number, name, date, condition or reason that the passage does not give
# ---------------------------------------------------------------------------------------------------------------
ADDED_SPECIFICS = [
    ("Employees who relocate at the company's request receive a relocation allowance and two weeks of temporary "
     "housing. The allowance is paid with the first salary after the move.",
     [("Employees relocated at the company's request receive a $10,000 relocation allowance.", N),
      ("Company-requested relocations include 14 days of temporary housing.", E)]),
    ("The Security team runs an annual tabletop exercise that simulates a ransomware attack. Members of the "
     "executive team and the incident response leads take part.",
     [("The ransomware tabletop exercise is run by the Security team every November.", N),
      ("Once a year, Security runs a tabletop exercise built around a ransomware scenario.", E)]),
    ("Customer refunds above $500 require approval from a Support team lead. Refunds are issued to the original "
     "payment method.",
     [("Refunds above $500 need a Support team lead's approval because of a fraud incident in 2023.", N),
      ("A $750 refund needs a Support team lead to approve it.", E)]),
    ("The London office is open from 07:00 to 21:00 on weekdays. Out of hours, the building can only be entered "
     "with a security escort.",
     [("The London office is open from 07:00 to 21:00 on weekdays and from 09:00 to 17:00 on Saturdays.", N),
      ("Outside its weekday opening hours, the London office can only be entered with a security escort.", E)]),
    ("Employees can request a second monitor and a headset through the IT catalogue. Items are delivered to the "
     "office or, for remote employees, to their home address.",
     [("Employees can request a 27-inch Dell monitor through the IT catalogue.", N),
      ("Remote employees can have a second monitor from the IT catalogue sent to their home.", E)]),
    ("Vendors must complete the security questionnaire before a contract is signed. The questionnaire is reviewed "
     "by the Third-Party Risk team.",
     [("Vendors must complete the security questionnaire at least 10 business days before the contract is signed.", N),
      ("Vendors must complete the security questionnaire before signing, unless the contract is worth less than $10,000.", N),
      ("The Third-Party Risk team reviews the security questionnaire, which vendors fill in before contract signature.", E)]),
    ("The Finance team closes the books within five business days after month end. Accruals must be submitted by "
     "the second business day.",
     [("Finance closes the books within five business days of month end under the Financial Controller, Jonas Weber.", N),
      ("The monthly close is finished no later than the fifth business day of the following month.", E)]),
    ("Engineers on the Platform team receive an on-call stipend for each week they are on call, in addition to time "
     "off in lieu for incidents handled at night.",
     [("Platform team engineers are paid a $400 stipend for each week on call.", N),
      ("Platform engineers get a stipend for every week of on-call duty.", E)]),
    ("The data centre in Frankfurt is certified to ISO 27001. Physical access requires a badge and a fingerprint "
     "scan.",
     [("The Frankfurt data centre has held ISO 27001 certification since 2019.", N),
      ("The Frankfurt data centre is ISO 27001 certified and SOC 2 compliant.", N),
      ("Entering the Frankfurt data centre requires both a badge and a fingerprint.", E)]),
    ("Employees who complete five years of service receive an extra day of annual leave from the following leave "
     "year.",
     [("After five years of service employees get an additional leave day, and another one after ten years.", N),
      ("Reaching five years of service earns one more day of annual leave.", E)]),
    ("Product launches must be reviewed by Legal for trademark clearance. Launch dates are set by the Product "
     "Marketing team.",
     [("Legal reviews product launches for trademark clearance at least six weeks before launch.", N),
      ("Product launches must be reviewed by Legal for trademark clearance, but only in the EU.", N)]),
    ("The company pays for employees' gym memberships up to €50 a month. Claims are made through the benefits "
     "platform with a copy of the membership invoice.",
     [("Gym memberships are covered up to €50 a month at partner gyms such as Urban Sports Club.", N),
      ("Gym membership claims need a copy of the invoice and are made through the benefits platform.", E)]),
    ("All new hires must complete data protection training during their first month. The course is available in "
     "English, German and Spanish.",
     [("All new hires must complete data protection training in their first month, delivered by an external provider.", N),
      ("Within their first month, every new hire has to finish data-protection training.", E)]),
    ("The Austin office hosts a quarterly volunteering day. Employees sign up through the Benevity portal.",
     [("The Austin office hosts a quarterly volunteering day with the Central Texas Food Bank.", N),
      ("Sign-up for the Austin office's quarterly volunteering day is through Benevity.", E)]),
    ("API keys for production services are rotated regularly and stored in Vault. Keys must never be shared over "
     "chat.",
     [("API keys for production services are rotated every 90 days.", N),
      ("Production API keys are stored in Vault and rotated on a regular basis.", E)]),
    ("Contractors must return all company equipment at the end of their engagement. IT sends a prepaid shipping "
     "label to remote contractors.",
     [("Contractors must return all equipment within five days of their engagement ending or pay a replacement fee.", N),
      ("When their engagement ends, contractors have to hand back all company equipment.", E)]),
    ("The procurement policy requires three competitive quotes for purchases above $20,000, and the lowest compliant "
     "quote should normally be selected.",
     [("Purchases above $20,000 require three quotes, and the lowest compliant one should normally win.", E),
      ("Purchases above $20,000 require three quotes from suppliers on the approved vendor list.", N)]),
    ("Employees may take up to two paid volunteering days per year. Volunteering days are recorded in Workday as "
     "a separate absence type.",
     [("Employees may take up to two paid volunteering days a year, which must be spent at registered charities.", N),
      ("Paid volunteering days, of which employees may take up to two a year, are recorded in Workday as their own absence type.", E)]),
    ("The service desk is staffed from 08:00 to 18:00 CET on weekdays. Outside those hours, urgent issues are "
     "handled by an on-call technician.",
     [("Outside service desk hours, urgent issues are handled by an on-call technician based in Kraków.", N),
      ("Urgent issues outside service desk hours go to an on-call technician, who responds within 30 minutes.", N)]),
    ("All production deployments must pass the automated test suite and receive one approval from the owning "
     "team.",
     [("Production deployments need one approval from the owning team and a passing test suite with at least 80% coverage.", N),
      ("A production deployment can't go out without passing the automated tests and getting an approval from the owning team.", E)]),
    ("Business cards are ordered through the Facilities portal and are printed in batches each Friday.",
     [("Business cards are printed each Friday and delivered to the employee's desk the following Monday.", N),
      ("Business card orders placed in the Facilities portal are printed in weekly batches.", E)]),
]

# ---------------------------------------------------------------------------------------------------------------
# long_passage: ~2 KB passages (about 300-350 words); the supporting sentence sits in the middle
# ---------------------------------------------------------------------------------------------------------------
LONG_PASSAGE = [
    ("Section 4 of the Global Travel Policy covers air and rail travel for all employees of Corvane and its "
     "subsidiaries. It should be read together with Section 5, which covers hotels and ground transport, and Section 6, "
     "which covers meals and per diems. All business trips should be booked through Navan at least 14 days before departure whenever "
     "possible, so that the company can benefit from negotiated fares. Bookings made less than seven days before "
     "departure must include a short justification, which the traveller's manager reviews as part of the normal "
     "approval. Economy class is the standard for all flights with a scheduled duration of under six hours. Within "
     "Europe, rail is the expected mode of transport for journeys that take less than four hours by train, for "
     "example London to Paris or Amsterdam to Brussels. For flights longer than six hours, employees at grade L5 and "
     "above may book premium economy. Seat selection fees of up to $40 per flight are reimbursable, but fees for "
     "extra legroom or lounge access are not. Checked baggage is covered for trips of three nights or longer, and for "
     "shorter trips when the traveller is carrying equipment for a customer demonstration. Travellers are expected "
     "to choose the lowest logical fare, defined as the cheapest fare within a two-hour window of the preferred "
     "departure time. Loyalty points earned on business travel may be kept for personal use, but they must never "
     "influence the choice of airline. Any change or cancellation must be made in Navan so that unused tickets can "
     "be credited back to the company, and unused non-refundable tickets must be reported to the travel team within "
     "30 days. Travellers who book outside Navan are not covered by the company's travel risk service and may not "
     "be reimbursed. Questions about this section should be sent to travel@corvane.com. The travel team aims to answer within one "
     "business day, and urgent requests during a trip can be made through the 24-hour support line in the Navan app.",
     [("Fees of up to $40 for choosing a seat on a flight can be reimbursed.", E),
      ("Lounge access fees can be claimed back in the same way as seat selection fees.", C),
      ("Employees below grade L5 may also book premium economy on flights longer than six hours.", N),
      ("A checked bag on a one-night trip is covered if the traveller is bringing kit for a customer demo.", E)]),
    ("This runbook describes how the Site Reliability Engineering group handles production incidents on the Helix "
     "platform. It is owned by the Head of SRE and is reviewed after every Sev-1 and at least once every six months. Anyone in the company can declare an incident with the /incident command in Slack, which creates a "
     "dedicated channel, opens a record in incident.io and pages the on-call SRE. Severity is assigned by the first "
     "responder using the matrix in Appendix A and can be changed at any point as more information becomes "
     "available. Sev-1 covers a complete outage of a customer-facing service or any confirmed loss of customer data; "
     "Sev-2 covers a partial outage or a degradation affecting more than 10% of requests. For every Sev-1, an "
     "incident commander from the IC rotation is paged automatically and takes over coordination from the first "
     "responder. The incident commander appoints a communications lead, who posts an update on the public status "
     "page at least every 30 minutes until the incident is resolved. Technical responders focus on mitigation first: "
     "rolling back the last deployment, failing over to the secondary region in eu-west-1, or disabling the feature "
     "flag involved. Root-cause analysis comes later and should never delay mitigation. Sev-2 incidents do not get a "
     "dedicated incident commander unless the on-call SRE requests one, but they follow the same communication rules "
     "whenever customers are affected. Once an incident is resolved, the incident commander schedules a blameless "
     "postmortem within five business days for Sev-1 and within ten business days for Sev-2. Postmortems are written "
     "in Confluence using the standard template and must list at least one action item with a named owner and a due "
     "date. Action items from Sev-1 postmortems are tracked in Jira under the RELIABILITY project and reviewed every "
     "Monday by the Head of SRE. Sev-3 incidents, which cover anything else that needs attention within a "
     "business day, need no postmortem, although teams are encouraged to write a short summary in the incident channel.",
     [("During a Sev-1, the status page has to be updated at least every half hour until the incident is over.", E),
      ("Failing over to the secondary region in us-east-1 is one of the standard mitigation steps.", C),
      ("The communications lead for a Sev-1 must come from the Customer Support team.", N)]),
    ("The 2026 medical plans for US employees are administered by Aetna and cover employees, spouses or domestic "
     "partners, and children up to age 26. This summary is provided for convenience; if it differs "
     "from the official plan documents, the plan documents prevail. Employees can choose between two plans. The PPO plan has an annual "
     "deductible of $500 for individual coverage and $1,000 for family coverage, and the company pays 90% of the "
     "monthly premium for employees and 75% for dependants. The high-deductible health plan (HDHP) has an annual "
     "deductible of $1,700 for individual coverage and $3,400 for family coverage, and the company pays the full "
     "employee premium. Employees who enrol in the HDHP are eligible for a health savings account, into which the "
     "company deposits $750 per year for individual coverage or $1,500 for family coverage, paid in equal amounts "
     "each quarter. The HSA belongs to the employee and stays with them if they leave the company. Both plans use "
     "the same Aetna Choice POS II network, and preventive care such as annual physicals, vaccinations and "
     "screenings is covered at 100% in network without any deductible. Prescription drugs are administered by CVS "
     "Caremark; generic drugs cost $10 for a 30-day supply on the PPO and are subject to the deductible on the HDHP. "
     "Out-of-network care is covered on both plans at 60% after the deductible. Dental coverage from Delta Dental and "
     "vision coverage from VSP are optional and can be added to either medical plan. New hires must enrol within 30 "
     "days of their start date, and coverage begins on the first day of employment. Outside open enrollment, changes "
     "are possible only after a qualifying life event, such as marriage, the birth or adoption of a child, or loss "
     "of other coverage, and must be requested within 31 days of the event. Questions can be directed to the Benefits team "
     "through the HR portal or to the Aetna concierge line, which is open from 08:00 to 20:00 Eastern Time on weekdays.",
     [("An employee with family coverage on the HDHP gets $375 from the company in their HSA every quarter.", E),
      ("The company deposits $1,500 a year into the HSA of employees with individual HDHP coverage.", C),
      ("Employees on the PPO can also open a flexible spending account.", N),
      ("Money in the HSA remains the employee's after they leave Corvane.", E)]),
    ("The Data Protection Standard (SEC-07, version 3.2) applies to all information created, processed or stored by "
     "Corvane, whether on company systems or on approved third-party platforms. It replaces version 3.1 and is binding on employees, "
     "contractors and temporary staff. Information is classified into four "
     "levels: Public, Internal, Confidential and Restricted. The information owner assigns the classification when "
     "the information is created and must review it at least once a year. Public information may be shared without "
     "restriction once Corporate Communications has approved it for publication. Internal information may be shared "
     "with all employees and with contractors under a signed agreement. Confidential information, which includes "
     "customer contracts, source code and non-public financial results, must be encrypted at rest using AES-256 and "
     "in transit using TLS 1.2 or higher. Restricted information, such as cardholder data, health data and "
     "encryption keys, must additionally be stored only in systems approved by the CISO and must never be processed "
     "on end-user devices. Encryption keys for Restricted systems are managed in AWS KMS with automatic annual "
     "rotation, and access to key administration is limited to the Cryptography Working Group. Email containing "
     "Confidential information may be sent to external recipients only through the secure-mail option in Outlook, "
     "which requires the recipient to authenticate. Printed copies of Confidential or Restricted information must be "
     "collected from the printer immediately and shredded in the locked consoles when no longer needed. Removable "
     "media such as USB drives are blocked on all managed laptops; exceptions require approval from IT Security and "
     "are valid for at most 30 days. Any suspected breach of this standard must be reported to security@corvane.com "
     "within one hour of discovery. This standard is reviewed annually by the Information Security Council. Violations may lead to "
     "disciplinary action, up to and including termination of employment, and exceptions must be requested through "
     "the Security Exceptions form in ServiceNow.",
     [("Health data may not be processed on employees' laptops.", E),
      ("Keys for Restricted systems are rotated automatically every quarter.", C),
      ("The keys used to encrypt Confidential information are stored in HashiCorp Vault.", N)]),
    ("Corvane's hybrid working policy, effective 1 September 2025, applies to all employees in Europe and North "
     "America except those in roles designated as site-based, such as data-centre technicians and reception staff. "
     "It replaces the interim guidance issued in 2021 and the regional addenda for Canada and the Nordics. "
     "Employees are expected to work from their assigned office on at least two days per week, and each team agrees "
     "one fixed anchor day on which all members are present. Anchor days are agreed with the team's director and "
     "published in the team's Confluence space. The remaining days may be worked from home or from another location "
     "within the employee's country of employment. Employees who live more than 80 kilometres from their assigned "
     "office may apply to be designated as remote employees; remote employees attend the office at least once per "
     "quarter for team events, and the company pays for the travel. Working from another country is limited to 20 "
     "working days per calendar year and must be registered in the Work Abroad tool at least two weeks before the "
     "trip, so that tax and immigration checks can be done. Home-working employees receive a one-off equipment "
     "budget of €600 or the local equivalent, plus a monthly allowance of €25 toward internet costs. The company does "
     "not reimburse rent, electricity or furniture beyond the equipment budget. Managers should review attendance "
     "patterns informally once a quarter and raise any concerns directly with the employee rather than going through "
     "HR in the first instance. Requests for a permanent reduction in office days for health or caring reasons are "
     "handled by HR under the flexible working procedure. This policy will be reviewed after twelve months. Employees with questions should speak to their manager "
     "first and then to their HR Business Partner, whose name is shown in Workday.",
     [("Someone who lives 100 km from their assigned office can apply to be a remote employee.", E),
      ("Remote employees are expected to come into the office at least once a month.", C),
      ("Remote employees receive a larger equipment budget than hybrid employees.", N),
      ("A stint of working abroad has to be entered in the Work Abroad tool at least one week beforehand.", C)]),
    ("The Procurement Policy sets out how Corvane buys goods and services from third parties. It is owned by the Chief Procurement Officer and approved "
     "by the Audit Committee. It applies to all "
     "purchases regardless of funding source, including purchases made by subsidiaries. Before committing to any "
     "spend, the requester must check whether an existing contract or preferred supplier already covers the need; "
     "the list of preferred suppliers is maintained in Coupa. Purchases up to $10,000 may be made directly by the "
     "budget owner using a purchase order or, for software subscriptions, a company card. For purchases between "
     "$10,000 and $100,000, the requester must obtain at least two written quotes, and the budget owner's approval "
     "must be supplemented by approval from the Procurement business partner. Purchases above $100,000 require a "
     "competitive tender managed by Procurement with at least three bidders, as well as approval from the CFO. "
     "Splitting a purchase into smaller orders to avoid these thresholds is prohibited and is treated as a breach of "
     "the Code of Conduct. All new suppliers must pass onboarding checks before a purchase order is issued, "
     "including sanctions screening, a bank-account verification and, for suppliers that will handle company data, "
     "a security review by the Third-Party Risk team. Contracts longer than three years or with automatic renewal "
     "clauses must be reviewed by Legal before signature. Payment terms are 45 days from the end of the month of "
     "invoice by default; shorter terms need approval from the Treasury team. Purchase orders must be raised before "
     "the supplier starts work, and retroactive purchase orders are reported monthly to the Audit Committee. "
     "Employees must declare any personal relationship with a supplier's owners or staff before taking part in a "
     "selection. Questions about this policy can be raised in the #procurement-help Slack channel, which the "
     "Procurement team monitors during business hours in every region.",
     [("A $250,000 purchase needs a Procurement-run tender with at least three bidders and the CFO's approval.", E),
      ("For purchases over $100,000, two written quotes are sufficient.", C),
      ("Tenders for purchases above $100,000 must stay open for at least 21 days.", N),
      ("Breaking one purchase into several smaller orders to stay under an approval threshold is not allowed.", E)]),
    ("Welcome to the Dublin office at 2 Grand Canal Square. This guide covers the practical information you "
     "need for your first weeks in the building. The building is open from 07:00 to 20:00 on weekdays, "
     "and the office is closed on weekends and Irish public holidays. Reception is on the ground floor and is staffed "
     "from 08:30 to 17:30; outside these hours visitors cannot be admitted. Corvane occupies the third, fourth and "
     "fifth floors. The third floor houses the Customer Support and Sales teams, the fourth floor the Engineering and "
     "Product teams, and the fifth floor the executive offices, Finance and the large event space. Desks on all "
     "floors can be booked through the Robin app up to two weeks in advance. The canteen on the fourth floor serves "
     "a free hot lunch from 12:00 to 14:00 on Tuesdays and Thursdays, which are the office's busiest days; on other "
     "days, fruit, snacks and coffee are available in the kitchens on every floor. Bicycle parking for 80 bikes is "
     "available in the basement, reached through the ramp on Forbes Street, and there are six showers next to the "
     "bike store. There is no car parking for employees, but the company subsidises the Leap Card through the "
     "TaxSaver scheme. The fifth-floor event space holds up to 120 people and can be booked through the Facilities "
     "team for internal events; external events require approval from the Site Lead, currently Aoife Brennan. "
     "First-aid kits and defibrillators are located next to the lifts on every floor, and the fire assembly point is "
     "the corner of Grand Canal Square and Misery Hill. Lost property is held at reception for 30 days. For any "
     "building issue, log a ticket in the Facilities portal or call the building manager on extension 4400. Urgent security issues outside office hours should be "
     "reported to the 24-hour security desk on +353 1 555 0199.",
     [("Free hot lunch is served in the fourth-floor canteen on Tuesdays and Thursdays.", E),
      ("The Dublin canteen serves a free hot lunch every weekday.", C),
      ("Vegetarian and vegan options are offered at the Dublin office lunch.", N),
      ("The Engineering teams in Dublin sit on the fifth floor.", C)]),
    ("To: Budget owners and finance business partners. From: Group Financial Controller. Subject: Month-end close "
     "calendar for the second half of the fiscal year. As announced at the finance town hall, we are shortening the "
     "close from seven to five business days starting with the July 2025 close. The change follows the review of the close process that the "
     "Finance leadership team completed in the spring. To make this possible, every team "
     "involved needs to meet the following deadlines. Goods and services received during the month must be receipted "
     "in Coupa by 17:00 CET on the last business day of the month. Accrual requests for invoices not yet received "
     "must be submitted through the accruals form by the end of business day 1, and they must include the supplier "
     "name, the amount and the cost centre. Intercompany charges will be booked by the shared-services team in "
     "Kraków on business day 2, and any disputes about those charges must be raised with them on the same day. "
     "Revenue from the Salesforce billing run is reconciled by business day 3, which is also the deadline for payroll "
     "journals. Management accounts will be circulated to the executive team on business day 5, followed by the "
     "variance commentary from budget owners, which is due by noon on business day 7. Late accruals will not be "
     "booked in the current month and will fall into the following period, which may cause budget variances that the "
     "owner will have to explain. Please note that the December close is an exception: because of the holiday "
     "period, it will run to seven business days, as before. The updated calendar with the exact dates for each "
     "month is attached to this memo and is also available on the Finance SharePoint site. If you have any "
     "questions, please contact your finance business partner. Thank you for your help in making the shorter close a "
     "success; we will review how the first three months have gone at the October finance town hall.",
     [("Disputes about intercompany charges must be raised on business day 2, the same day those charges are booked.", E),
      ("Intercompany charges are booked by the shared-services team in Warsaw.", C),
      ("Accrual requests above €10,000 need the Financial Controller's approval.", N),
      ("The December close will also be completed in five business days.", C)]),
    ("This section of the Code of Conduct explains how employees should handle gifts, hospitality and entertainment "
     "offered by or to customers, suppliers, partners and public officials. It applies to all employees, contractors and members of the Board, in "
     "every country where Corvane operates. Our principle is simple: never give or "
     "accept anything of value that could influence, or appear to influence, a business decision. Employees may "
     "accept modest gifts, such as branded merchandise, flowers or a bottle of wine, with a value of up to €75 per "
     "item and no more than €150 from the same organisation in a calendar year. Any gift above €75 must be politely "
     "declined or, where refusing would cause offence, accepted on behalf of the company and handed to the Compliance "
     "team, which will donate it to charity. Hospitality, such as a business meal or a ticket to a sporting or "
     "cultural event, may be accepted if the host is present, the event has a clear business purpose and the value "
     "does not exceed €200 per person. Hospitality above €200 per person requires prior approval from the employee's "
     "director and the Compliance team through the Gifts and Hospitality register. Employees involved in an active "
     "tender must not accept any gift or hospitality from the bidders, whatever its value, until the contract has "
     "been awarded. Cash, vouchers, gift cards and loans must always be refused. Gifts and hospitality offered to "
     "public officials, including employees of state-owned companies, must be approved by Compliance in advance, "
     "regardless of value. All gifts and hospitality received above €50, whether accepted or declined, must be "
     "recorded in the register within five working days. Managers receive a quarterly report of the entries made by "
     "their teams. Breaches of this policy are investigated by Compliance and may result in disciplinary action. Employees who are unsure whether something is acceptable should "
     "ask before accepting, by emailing compliance@corvane.com or using the Ask Compliance form on the intranet.",
     [("Accepting a €350 dinner invitation from a supplier needs prior approval from your director and from Compliance.", E),
      ("While a tender is running, employees may accept small gifts worth under €75 from the bidders.", C),
      ("Hospitality above €200 per person must also be reported to the Audit Committee.", N)]),
    ("This runbook applies to every service deployed to the production Kubernetes clusters in eu-central-1 and "
     "us-east-2. It is maintained by the Developer Experience team and is the reference for every engineer "
     "with deployment rights. Deployments are performed through Argo CD; manual kubectl changes in production are not permitted "
     "except during a declared incident, and any such change must be reverted or committed to Git within 24 hours. "
     "Each deployment starts with a canary that receives 5% of traffic for at least 15 minutes. During the canary "
     "phase, the deployment is promoted automatically if the error rate stays below 1% and the p99 latency does not "
     "increase by more than 20% compared with the stable version. If either threshold is breached, Argo Rollouts "
     "aborts the canary and returns all traffic to the stable version without human intervention. After a successful "
     "canary, traffic is shifted in steps of 25%, 50% and 100%, with a ten-minute pause between steps. Deployments "
     "are not allowed on Fridays after 15:00 local time or on the day before a public holiday in Germany or the "
     "United States, unless the change fixes a Sev-1 or Sev-2 incident. Database migrations must be backward "
     "compatible with the previous release and are applied in a separate pipeline before the application "
     "deployment. Feature flags are managed in LaunchDarkly, and new features should be released behind a flag that "
     "is off by default. Every deployment is announced automatically in the #deploys Slack channel with the commit "
     "hash and the name of the engineer who triggered it. Rollbacks are performed by reverting the commit in Git, "
     "never by editing resources in the cluster. The owning team's on-call engineer must be available during any "
     "production deployment and for one hour afterwards. Questions about the pipeline or requests for an exception can be raised "
     "in the #dx-help channel, which the Developer Experience team staffs during European and US business hours.",
     [("A canary that breaches the error-rate or latency threshold is rolled back automatically, without anyone stepping in.", E),
      ("Once the canary succeeds, traffic is moved straight to 100%.", C),
      ("Production deployments are also blocked during the last week of December.", N),
      ("A routine deployment, one that fixes no incident, cannot go out at 16:00 local time on a Friday.", E)]),
    ("This policy describes the family leave available to employees of Corvane UK Ltd. It should be read together with the UK Employee Handbook and "
     "the Flexible Working Policy. It supplements, and never "
     "reduces, the statutory entitlements under UK law. Birth mothers are entitled to up to 52 weeks of maternity "
     "leave, regardless of length of service. The company pays enhanced maternity pay of 100% of normal salary for the "
     "first 20 weeks to employees with at least 26 weeks of continuous service by the fifteenth week before the "
     "expected week of childbirth; after that, statutory maternity pay applies for the rest of the 39-week pay "
     "period. The partner of a birth mother, or the secondary adopter, is entitled to 10 weeks of paternity leave at "
     "full pay, which can be taken in up to two blocks within the first year after the birth or placement. Employees "
     "may also take up to 18 weeks of unpaid parental leave for each child before the child's eighteenth birthday, "
     "with a maximum of four weeks per child per year. Shared parental leave is available under the statutory "
     "scheme, and the company enhances shared parental pay to full salary for the first 10 weeks taken by either "
     "parent. During any period of family leave, employees keep accruing annual leave and remain in the pension "
     "scheme, and the company continues its pension contributions based on normal salary. Employees can work up to "
     "ten keeping-in-touch days during maternity or adoption leave without ending their leave, and they are paid "
     "their normal daily rate for these days. Requests for leave should be made through Workday at least 15 weeks "
     "before the expected week of childbirth. Returning parents may request flexible working from their first day "
     "back. For advice, contact the UK HR team. Line managers should not discuss family-leave plans with the rest of "
     "the team without the employee's agreement, and they can ask HR for guidance on planning cover.",
     [("A birth mother's partner can split their ten weeks of fully paid paternity leave into two blocks within the child's first year.", E),
      ("Unpaid parental leave is limited to six weeks per child per year.", C),
      ("Employees need two years of service before they can take unpaid parental leave.", N)]),
    ("The Third-Party Risk Standard defines how Corvane assesses and monitors suppliers that access company systems "
     "or data. Every supplier is assigned a risk tier during onboarding, based on a questionnaire completed by the "
     "business owner in ServiceNow Vendor Risk. Tier 1 suppliers store or process Restricted data or have privileged "
     "access to production systems; Tier 2 suppliers process Confidential data or have non-privileged network "
     "access; Tier 3 covers all other suppliers. Tier 3 suppliers need only sanctions screening and a standard "
     "contract. Tier 2 suppliers must complete the full security questionnaire and provide evidence of an "
     "information security programme, such as an ISO 27001 certificate. Tier 1 suppliers must, in addition, provide "
     "an independent SOC 2 Type II report or ISO 27001 certificate covering the services in scope, and they are "
     "reassessed every twelve months. Tier 2 suppliers are reassessed every 24 months, and Tier 3 suppliers only when "
     "the contract is renewed. All Tier 1 and Tier 2 contracts must include a data processing agreement, breach "
     "notification within 48 hours and a right to audit. Where a supplier cannot meet a requirement, the business "
     "owner may request a risk acceptance, which must be approved by the CISO for Tier 1 and by the Third-Party Risk "
     "lead for Tier 2, and which is valid for at most one year. Supplier access to production systems must go "
     "through the privileged access gateway and is reviewed quarterly by the system owner. When a contract ends, the "
     "business owner must confirm within 30 days that all access has been removed and that company data has been "
     "returned or destroyed. Metrics on supplier risk are reported to the Risk Committee every quarter. Exceptions that are not "
     "covered by a risk acceptance must be escalated to the CISO, and the standard itself is reviewed every year.",
     [("Tier 1 suppliers are reassessed once a year.", E),
      ("Tier 2 suppliers are reassessed every twelve months.", C),
      ("Tier 1 suppliers must also undergo an annual on-site audit by Corvane.", N),
      ("Risk acceptances for Tier 1 suppliers are approved by the Third-Party Risk lead.", C)]),
]

# ---------------------------------------------------------------------------------------------------------------
# perturbation: groups of a base entailed pair, one or more single-field flips, and one order variant
#   sentences   the base premise, one self-contained sentence (or passage) per item
#   joiner      " " for sentences of one passage, "\n\n" for separate passages
#   flips       ("premise", old, new, label): replace the one occurrence of old in the premise
#               ("hypothesis", new_hypothesis, label)
# The order variant reverses the items; its label stays entailment.
# ---------------------------------------------------------------------------------------------------------------
PERTURBATION = [
    dict(sentences=["Employees accrue 1.75 days of annual leave for each full month worked.",
                    "Leave requests are submitted in Workday and approved by the line manager.",
                    "Unused leave above five days is forfeited on 31 March of the following year."],
         hypothesis="Annual leave builds up at a rate of 1.75 days per full month worked.",
         flips=[("premise", "1.75 days", "1.25 days", C),
                ("hypothesis", "Annual leave builds up at a rate of 2.5 days per full month worked.", C)]),
    dict(sentences=["The Dublin office is open from 07:30 to 19:00 on weekdays.",
                    "Desk bookings are made through the Robin app.",
                    "Visitors to the Dublin office must sign in at the ground-floor reception."],
         hypothesis="Visitors to the Dublin office sign in at reception on the ground floor.",
         flips=[("hypothesis", "Visitors to the Dublin office sign in at reception on the third floor.", C),
                ("premise", "Visitors to the Dublin office", "Visitors to the Cork office", N)]),
    dict(sentences=["Laptops must lock the screen automatically after 5 minutes of inactivity.",
                    "Full-disk encryption is enforced on all company laptops through Intune.",
                    "Lost devices must be reported to the Service Desk within 24 hours."],
         hypothesis="Every company laptop has full-disk encryption enforced via Intune.",
         flips=[("premise", "Full-disk encryption is enforced", "Full-disk encryption is not yet enforced", C),
                ("hypothesis", "Every company laptop has full-disk encryption enforced via Jamf.", C)]),
    dict(sentences=["Invoices under $5,000 can be approved by the budget owner alone.",
                    "Invoices from $5,000 to $50,000 need approval from both the budget owner and the Finance Business Partner.",
                    "Invoices above $50,000 need approval from the budget owner, the Finance Business Partner and the CFO."],
         hypothesis="A $20,000 invoice needs approval from the Finance Business Partner.",
         flips=[("hypothesis", "A $2,000 invoice needs approval from the Finance Business Partner.", C),
                ("premise", "from $5,000 to $50,000", "from $25,000 to $50,000", N)]),
    dict(sentences=["Economy class is required for all flights under six hours.",
                    "Premium economy may be booked for flights between six and ten hours.",
                    "Business class is permitted only for flights longer than ten hours."],
         hypothesis="An eight-hour flight can be booked in premium economy.",
         flips=[("hypothesis", "An eight-hour flight can be booked in business class.", C),
                ("premise", "Premium economy may be booked", "Premium economy may not be booked", C)]),
    dict(sentences=["The probation period for new employees is six months.",
                    "During probation, either party may end employment with one week's notice.",
                    "After probation, the notice period is one month."],
         hypothesis="While on probation, employment can be ended by either side with one week's notice.",
         flips=[("premise", "one week's notice", "two weeks' notice", C),
                ("hypothesis", "While on probation, only the employer can end employment with one week's notice.", C)]),
    dict(sentences=["Guest Wi-Fi passwords rotate every Monday at 06:00.",
                    "The current guest password is displayed on the screens at reception.",
                    "Guest devices are isolated from the corporate network."],
         hypothesis="The guest Wi-Fi password changes once a week.",
         flips=[("premise", "every Monday at 06:00", "on the first Monday of each month", C),
                ("hypothesis", "The guest Wi-Fi password changes every day.", C)]),
    dict(sentences=["The company contributes €150 per month toward public transport passes.",
                    "The transport contribution is paid through payroll and is tax-free up to the legal limit.",
                    "Employees who receive a car allowance are not eligible for the transport contribution."],
         hypothesis="Someone who gets a car allowance cannot also receive the public transport contribution.",
         flips=[("premise", "are not eligible for", "are also eligible for", C),
                ("hypothesis", "Someone who gets a car allowance receives half of the public transport contribution.", C)]),
    dict(sentences=["Deployments to production are frozen from 18 December to 3 January.",
                    "Emergency fixes during the freeze require approval from the VP of Engineering.",
                    "The freeze calendar is published in Confluence each November."],
         hypothesis="Deploying an emergency fix on 28 December needs the VP of Engineering's approval.",
         flips=[("hypothesis", "Deploying an emergency fix on 10 January needs the VP of Engineering's approval.", N),
                ("premise", "from 18 December to 3 January", "from 18 December to 27 December", N)]),
    dict(sentences=["Non-disclosure agreements must use the company's standard template.",
                    "Changes to the NDA template require review by the Commercial Legal team.",
                    "Signed NDAs are stored in the Ironclad contract repository."],
         hypothesis="Signed NDAs are kept in Ironclad.",
         flips=[("premise", "the Ironclad contract repository", "the DocuSign CLM contract repository", C),
                ("hypothesis", "Signed NDAs are kept in Ironclad for seven years.", N)]),
    dict(sentences=["Security incidents involving personal data must be reported to the Data Protection Officer within 24 hours of discovery.",
                    "The Data Protection Officer decides whether a notification to the supervisory authority is needed.",
                    "Where notification to the supervisory authority is required, it is made within 72 hours of discovery."],
         hypothesis="An incident involving personal data has to reach the DPO within a day of being discovered.",
         flips=[("premise", "within 24 hours of discovery", "within 72 hours of discovery", C),
                ("hypothesis", "An incident involving personal data has to reach the supervisory authority within a day of being discovered.", C)]),
    dict(sentences=["The Amsterdam office has 220 desks across four floors.",
                    "The rooftop terrace of the Amsterdam office is open from May to September.",
                    "Bike parking for 150 bicycles is available in the basement of the Amsterdam office."],
         hypothesis="The Amsterdam office's basement has space for 150 bikes.",
         flips=[("premise", "Bike parking for 150 bicycles", "Bike parking for 50 bicycles", C),
                ("hypothesis", "The Amsterdam office's basement has space for 150 bikes and 40 cars.", N)]),
    dict(sentences=["Suppliers must be onboarded in Coupa before a purchase order can be raised.",
                    "Supplier onboarding includes a sanctions screening and a bank-detail verification call.",
                    "The verification call must be made to a phone number obtained independently of the supplier's invoice."],
         order=[1, 2, 0],
         hypothesis="A supplier cannot receive a purchase order until it has been set up in Coupa.",
         flips=[("hypothesis", "A supplier can receive a purchase order before being set up in Coupa if Procurement agrees.", C),
                ("premise", "before a purchase order can be raised", "within 30 days of their first purchase order", C)]),
    dict(sentences=["Employees who work on a public holiday receive a day off in lieu.",
                    "A day in lieu must be taken within three months.",
                    "Managers must record public-holiday work in Workday by the end of that week."],
         hypothesis="A day in lieu earned for public-holiday work has to be used within three months.",
         flips=[("premise", "within three months", "within six months", C),
                ("hypothesis", "A day in lieu earned for public-holiday work has to be used within three weeks.", C)]),
    dict(sentences=["Shared mailboxes are requested through the ServiceNow portal.",
                    "Each shared mailbox must have at least two named owners.",
                    "Shared mailboxes that receive no email for 180 days are archived."],
         hypothesis="A shared mailbox needs a minimum of two named owners.",
         flips=[("premise", "at least two named owners", "exactly one named owner", C),
                ("hypothesis", "A shared mailbox needs a minimum of three named owners.", C)]),
    dict(sentences=["Per diem rates for domestic travel are $75 per day.",
                    "International per diem rates follow the US State Department schedule.",
                    "Per diems are not paid for day trips that do not include an overnight stay."],
         hypothesis="A day trip without an overnight stay does not qualify for a per diem.",
         flips=[("premise", "Per diems are not paid for day trips", "Per diems are paid for day trips", C),
                ("hypothesis", "A day trip without an overnight stay qualifies for half the per diem.", C)]),
    dict(sentences=["The Helsinki office is part of the Nordics region.",
                    "All Nordics offices observe a summer shutdown during the last two weeks of July."],
         joiner="\n\n",
         hypothesis="The Helsinki office shuts down for the last two weeks of July.",
         flips=[("premise", "part of the Nordics region", "part of the Baltics region", N),
                ("hypothesis", "The Helsinki office shuts down for the first two weeks of August.", C)]),
    dict(sentences=["Production access is granted just in time through Teleport for a maximum of four hours.",
                    "Every Teleport session is recorded and the recording is retained for one year.",
                    "Access requests must reference an open Jira ticket."],
         hypothesis="Teleport sessions to production last no more than four hours.",
         flips=[("premise", "a maximum of four hours", "a maximum of eight hours", C),
                ("hypothesis", "Teleport sessions to production last no more than two hours.", C)]),
    dict(sentences=["Dental coverage is included in the standard health plan.",
                    "Vision coverage is available as an optional add-on for an extra $8 per month.",
                    "Dependants can be added during open enrollment or after a qualifying life event."],
         hypothesis="Vision coverage is an optional extra that costs $8 a month.",
         flips=[("premise", "an extra $8 per month", "an extra $18 per month", C),
                ("hypothesis", "Dental coverage is an optional extra that costs $8 a month.", C)]),
    dict(sentences=["Pull requests need approval from at least two reviewers before merging to main.",
                    "At least one reviewer must belong to the code-owning team.",
                    "Direct pushes to main are blocked for everyone, including administrators."],
         order=[2, 0, 1],
         hypothesis="Administrators cannot push directly to main.",
         flips=[("premise", "for everyone, including administrators", "for everyone except administrators", C),
                ("hypothesis", "Administrators can push directly to main in an emergency.", C)]),
    dict(sentences=["Hotel stays in Paris are capped at €220 per night.",
                    "Hotel stays in Lyon are capped at €150 per night.",
                    "Breakfast is reimbursed separately if it is not included in the room rate."],
         hypothesis="The nightly hotel cap in Lyon is €150.",
         flips=[("hypothesis", "The nightly hotel cap in Lyon is €220.", C),
                ("hypothesis", "The nightly hotel cap in Marseille is €150.", N)]),
    dict(sentences=["Employees must disclose any outside employment to their manager and to HR.",
                    "Outside work for a competitor is not permitted.",
                    "Unpaid volunteering does not need to be disclosed."],
         hypothesis="Volunteering without pay doesn't have to be disclosed.",
         flips=[("premise", "does not need to be disclosed", "needs to be disclosed as well", C),
                ("hypothesis", "Volunteering without pay has to be disclosed to HR.", C)]),
    dict(sentences=["The 2026 sales kickoff takes place in Barcelona from 20 to 22 January.",
                    "Registration for the kickoff closes on 12 December 2025.",
                    "Travel to the kickoff must be booked through Navan by 9 January 2026."],
         hypothesis="Registration for the 2026 sales kickoff closes in December 2025.",
         flips=[("premise", "closes on 12 December 2025", "closes on 12 January 2026", C),
                ("hypothesis", "Registration for the 2026 sales kickoff closes in November 2025.", C)]),
    dict(sentences=["The company's fiscal year ends on 30 June.",
                    "Annual budgets are locked in the planning system on 15 May.",
                    "Headcount changes after budget lock require CFO approval."],
         hypothesis="Adding headcount after 15 May needs the CFO's approval.",
         flips=[("premise", "require CFO approval", "require approval from the department VP", N),
                ("premise", "require CFO approval", "do not require CFO approval", C)]),
    dict(sentences=["Company phones are enrolled in Intune and must run the latest major OS version within 30 days of its release.",
                    "Jailbroken or rooted devices are blocked from email.",
                    "Personal phones may access email only through the Outlook app."],
         hypothesis="On a personal phone, company email can be reached only through Outlook.",
         flips=[("premise", "Personal phones may access email only through the Outlook app", "Personal phones may not access company email at all", C),
                ("hypothesis", "On a personal phone, company email can be reached through the built-in mail app.", C)]),
    dict(sentences=["Visitors to the Singapore office receive a temporary badge valid for one day.",
                    "Contractors receive badges valid for the length of their contract, up to 12 months.",
                    "Lost badges are deactivated as soon as they are reported to Security."],
         hypothesis="A contractor's badge can be valid for up to a year.",
         flips=[("premise", "up to 12 months", "up to 6 months", C),
                ("hypothesis", "A contractor's badge is valid for one day only.", C)]),
    dict(sentences=["Harbour, the largest meeting room in the Sydney office, seats 16 people.",
                    "Bookings for Harbour are limited to two hours during business hours.",
                    "Catering for meetings in Sydney is ordered through the Facilities portal at least 48 hours in advance."],
         hypothesis="During business hours, Harbour can't be booked for longer than two hours.",
         flips=[("premise", "limited to two hours", "limited to four hours", C),
                ("hypothesis", "Outside business hours, Harbour can't be booked for longer than two hours.", N)]),
    dict(sentences=["Gifts from suppliers worth more than $100 must be declared in the gifts register.",
                    "Gifts worth more than $250 must be declined.",
                    "Cash gifts must always be declined, regardless of amount."],
         hypothesis="A $150 gift from a supplier has to be recorded in the gifts register.",
         flips=[("hypothesis", "A $150 gift from a supplier does not need to be recorded anywhere.", C),
                ("premise", "worth more than $100 must be declared", "worth more than $200 must be declared", N)]),
    dict(sentences=["The Search team's on-call engineer receives a stipend of $500 per week.",
                    "On-call weeks run from Tuesday 09:00 to the following Tuesday 09:00.",
                    "Engineers are not scheduled for more than one on-call week in any four-week period."],
         hypothesis="A Search on-call week starts on Tuesday morning.",
         flips=[("premise", "from Tuesday 09:00 to the following Tuesday 09:00", "from Monday 09:00 to the following Monday 09:00", C),
                ("hypothesis", "A Search on-call week starts on Wednesday morning.", C)]),
    dict(sentences=["Employees in the Netherlands receive a holiday allowance of 8% of gross annual salary.",
                    "The Dutch holiday allowance is paid in May.",
                    "Employees who leave before May receive a pro-rated holiday allowance with their final salary."],
         hypothesis="Dutch employees' holiday allowance is paid out in May.",
         flips=[("premise", "is paid in May", "is paid in June", C),
                ("hypothesis", "Dutch employees' holiday allowance is paid out in December.", C)]),
    dict(sentences=["Project Orion is led by the Data Science team.",
                    "Projects led by the Data Science team must register their models in the MLflow registry before deployment."],
         joiner="\n\n",
         hypothesis="Orion's models have to be registered in MLflow before they are deployed.",
         flips=[("premise", "Project Orion is led by the Data Science team", "Project Orion is led by the Analytics Engineering team", N),
                ("premise", "must register their models", "are not required to register their models", C)]),
    dict(sentences=["Rail is the required mode of travel between London and Paris.",
                    "Flights between London and Paris need written approval from a director.",
                    "First-class rail tickets are not reimbursed."],
         hypothesis="Flying from London to Paris requires a director's written approval.",
         flips=[("premise", "need written approval from a director", "are not permitted", C),
                ("hypothesis", "Flying from London to Paris requires the CFO's written approval.", N)]),
    dict(sentences=["Employees can buy up to five additional days of annual leave each year.",
                    "The cost of purchased leave is deducted from salary in equal instalments over twelve months.",
                    "Requests to buy leave are accepted only during the January enrolment window."],
         hypothesis="Requests to purchase extra leave can only be made in January.",
         flips=[("premise", "during the January enrolment window", "during the October enrolment window", C),
                ("hypothesis", "Requests to purchase extra leave can be made at any time of year.", C)]),
    dict(sentences=["Privileged access to AWS production accounts requires a hardware security key.",
                    "Privileged sessions in AWS expire after one hour.",
                    "Break-glass accounts are stored in a sealed vault and reviewed monthly."],
         hypothesis="A privileged AWS session times out after sixty minutes.",
         flips=[("premise", "expire after one hour", "expire after eight hours", C),
                ("hypothesis", "A privileged AWS session times out after thirty minutes.", C)]),
    dict(sentences=["The Q2 2025 sales commission statement will be issued on 18 July 2025.",
                    "Disputes about a commission statement must be raised within 30 days of the statement date.",
                    "Approved corrections are paid with the August payroll."],
         hypothesis="Disputes about the Q2 2025 commission statement must be raised by 17 August 2025.",
         flips=[("premise", "within 30 days", "within 14 days", C),
                ("premise", "will be issued on 18 July 2025", "will be issued on 18 August 2025", C)]),
    dict(sentences=["Employment contracts for the Polish entity are governed by Polish law.",
                    "Employment contracts for the Czech entity are governed by Czech law.",
                    "Disputes with contractors in both countries are resolved by arbitration in Vienna."],
         order=[1, 0, 2],
         hypothesis="Disputes with contractors in Poland go to arbitration in Vienna.",
         flips=[("premise", "by arbitration in Vienna", "by arbitration in Prague", C),
                ("hypothesis", "Disputes with contractors in Hungary go to arbitration in Vienna.", N)]),
    dict(sentences=["The Berlin office car park has 12 charging points for electric vehicles.",
                    "EV charging is free for employees and limited to four hours per car per day.",
                    "Parking spaces are allocated through the Parkly app."],
         hypothesis="Employees can charge their electric car for free, for up to four hours a day.",
         flips=[("premise", "EV charging is free for employees and", "EV charging costs employees €0.35 per kWh and is", C),
                ("hypothesis", "Employees can charge their electric car for free, for up to eight hours a day.", C)]),
    dict(sentences=["Corporate cards are issued to employees who travel at least four times a year.",
                    "Corporate card limits start at $5,000 per month.",
                    "Personal spending on the corporate card is prohibited."],
         hypothesis="The corporate card may not be used for personal expenses.",
         flips=[("premise", "Personal spending on the corporate card is prohibited", "Personal spending on the corporate card is allowed if it is repaid within 30 days", C)]),
    dict(sentences=["Email attachments larger than 25 MB are blocked by the mail gateway.",
                    "Large files should be shared through OneDrive links rather than as email attachments.",
                    "External OneDrive links expire after 30 days by default."],
         hypothesis="The mail gateway blocks attachments above 25 MB.",
         flips=[("premise", "larger than 25 MB", "larger than 50 MB", C),
                ("hypothesis", "The mail gateway blocks attachments above 25 MB and strips macros from Office files.", N)]),
    dict(sentences=["The employee assistance programme offers up to six free counselling sessions per issue per year.",
                    "Counselling sessions can be held in person, by phone or by video.",
                    "The employee assistance programme is provided by Lyra Health and is confidential."],
         hypothesis="Through the EAP, up to six counselling sessions per issue each year are free.",
         flips=[("premise", "up to six free counselling sessions", "up to three free counselling sessions", C),
                ("hypothesis", "Through the EAP, up to six counselling sessions per issue each year are free, and they are provided by Spring Health.", C)]),
    dict(sentences=["Employees in the Austin office are expected in the office on Tuesdays and Thursdays.",
                    "Fridays are meeting-free across the company.",
                    "Teams may agree on an additional anchor day with their director."],
         hypothesis="Austin employees are expected on site on Tuesdays and Thursdays.",
         flips=[("premise", "on Tuesdays and Thursdays", "on Mondays and Wednesdays", C),
                ("hypothesis", "Toronto employees are expected on site on Tuesdays and Thursdays.", N)]),
    dict(sentences=["Signed customer contracts are retained for ten years after expiry.",
                    "Draft versions of a contract may be deleted once it is signed.",
                    "Retention periods are suspended for any document subject to a legal hold."],
         hypothesis="A document under legal hold is not deleted just because its normal retention period has ended.",
         flips=[("premise", "Retention periods are suspended for any document subject to a legal hold", "Documents subject to a legal hold are deleted at the end of their normal retention period like any other document", C)]),
    dict(sentences=["The Platform team owns the deploy-gateway service, which is registered in the internal developer portal.",
                    "Every team that owns a service registered in the developer portal must keep that service's runbook link up to date."],
         joiner="\n\n",
         hypothesis="The Platform team has to keep the runbook link for deploy-gateway up to date.",
         flips=[("premise", "The Platform team owns", "The Developer Experience team owns", N)]),
]

# ---------------------------------------------------------------------------------------------------------------
# assembly
# ---------------------------------------------------------------------------------------------------------------
SLICES = [  # (slice name, id prefix, data)
    ("numeric", "num", NUMERIC),
    ("dates", "date", DATES),
    ("negation", "neg", NEGATION),
    ("entity", "ent", ENTITY),
    ("multi_passage", "multi", MULTI_PASSAGE),
    ("paraphrase", "para", PARAPHRASE),
    ("distractor", "dist", DISTRACTOR),
    ("added_specifics", "spec", ADDED_SPECIFICS),
    ("long_passage", "long", LONG_PASSAGE),
]


def _clean(text: str) -> str:
    if text != text.strip() or "  " in text or " \n" in text:
        raise ValueError(f"stray whitespace in: {text!r}")
    return text


def build() -> list[dict]:
    rows: list[dict] = []
    for name, prefix, data in SLICES:
        n = 0
        for premise, hypotheses in data:
            if isinstance(premise, tuple):  # multi_passage: two passages joined with a blank line
                if len(premise) != 2:
                    raise ValueError("a multi_passage premise has exactly two passages")
                premise = "\n\n".join(premise)
            for hypothesis, label in hypotheses:
                n += 1
                rows.append({"id": f"{prefix}-{n:03d}", "premise": _clean(premise), "hypothesis": _clean(hypothesis),
                             "label": label, "slice": name})
    for g, group in enumerate(PERTURBATION, 1):
        gid = f"pert-{g:03d}"
        items = group["sentences"]
        joiner = group.get("joiner", " ")
        base_premise = joiner.join(items)
        hypothesis = group["hypothesis"]
        rows.append({"id": gid, "premise": _clean(base_premise), "hypothesis": _clean(hypothesis), "label": E,
                     "slice": "perturbation", "group": gid})
        for f, flip in enumerate(group["flips"], 1):
            if flip[0] == "premise":
                _, old, new, label = flip
                if base_premise.count(old) != 1:
                    raise ValueError(f"{gid}: {old!r} must occur exactly once in the premise")
                premise, hyp = base_premise.replace(old, new), hypothesis
            else:
                _, hyp, label = flip
                premise = base_premise
            if label == E:
                raise ValueError(f"{gid}: a flip must change the label")
            rows.append({"id": f"{gid}-f{f}", "premise": _clean(premise), "hypothesis": _clean(hyp), "label": label,
                         "slice": "perturbation", "group": gid, "perturbation": "flip"})
        order = group.get("order", list(range(len(items)))[::-1])
        if sorted(order) != list(range(len(items))) or order == list(range(len(items))):
            raise ValueError(f"{gid}: order must be a real permutation")
        rows.append({"id": f"{gid}-o", "premise": _clean(joiner.join(items[i] for i in order)),
                     "hypothesis": _clean(hypothesis), "label": E, "slice": "perturbation", "group": gid,
                     "perturbation": "order"})
    ids = [r["id"] for r in rows]
    if len(ids) != len(set(ids)):
        raise ValueError("duplicate ids")
    pairs = [(r["premise"], r["hypothesis"]) for r in rows]
    if len(pairs) != len(set(pairs)):
        dup = [p for p, k in collections.Counter(pairs).items() if k > 1]
        raise ValueError(f"duplicate pairs: {dup[:3]}")
    return rows


def stats(rows: list[dict]) -> str:
    table = collections.defaultdict(collections.Counter)
    for r in rows:
        table[r["slice"]][r["label"]] += 1
    order = [s for s, _, _ in SLICES] + ["perturbation"]
    lines = [f"{'slice':<16}{'entailment':>11}{'neutral':>9}{'contradiction':>14}{'total':>7}"]
    total = collections.Counter()
    for s in order:
        c = table[s]
        total.update(c)
        lines.append(f"{s:<16}{c[E]:>11}{c[N]:>9}{c[C]:>14}{sum(c.values()):>7}")
    lines.append(f"{'all':<16}{total[E]:>11}{total[N]:>9}{total[C]:>14}{sum(total.values()):>7}")
    return "\n".join(lines)


def validate(path: pathlib.Path) -> list[str]:
    """Check the written file independently of build(); returns a list of problems (empty when valid)."""
    problems: list[str] = []
    required = {"id", "premise", "hypothesis", "label", "slice"}
    seen: set[str] = set()
    by_slice: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    groups: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    raw = path.read_bytes().decode("utf-8")  # raises on invalid UTF-8
    for n, line in enumerate(raw.split("\n")[:-1], 1):
        if line != line.rstrip():
            problems.append(f"line {n}: trailing whitespace")
        try:
            r = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(f"line {n}: not JSON ({exc})")
            continue
        if not isinstance(r, dict) or not required <= r.keys():
            problems.append(f"line {n}: missing fields {sorted(required - set(r))}")
            continue
        if not all(isinstance(r[k], str) and r[k] for k in required):
            problems.append(f"line {n}: empty or non-string field")
        if r["label"] not in (E, N, C):
            problems.append(f"line {n}: bad label {r['label']!r}")
        if r["id"] in seen:
            problems.append(f"line {n}: duplicate id {r['id']}")
        seen.add(r["id"])
        by_slice[r["slice"]][r["label"]] += 1
        if r["slice"] == "multi_passage" and r["premise"].count("\n\n") != 1:
            problems.append(f"line {n}: multi_passage premise must be two passages")
        if r["slice"] == "perturbation":
            kind = r.get("perturbation", "base")
            if "group" not in r or kind not in ("base", "flip", "order"):
                problems.append(f"line {n}: perturbation row needs group and a valid perturbation")
                continue
            if kind == "base" and (r["group"] != r["id"] or r["label"] != E):
                problems.append(f"line {n}: a base is entailed and is its own group")
            if kind == "flip" and r["label"] == E:
                problems.append(f"line {n}: a flip must not be entailment")
            if kind == "order" and r["label"] != E:
                problems.append(f"line {n}: an order variant keeps entailment")
            groups[r["group"]][kind] += 1
    for name, c in by_slice.items():
        if not c[E] or not (c[N] + c[C]):
            problems.append(f"slice {name}: needs both entailed and non-entailed pairs")
    for gid, c in groups.items():
        if c["base"] != 1 or c["flip"] < 1 or c["order"] != 1:
            problems.append(f"group {gid}: needs one base, at least one flip and one order variant ({dict(c)})")
    if len(groups) < 40:
        problems.append(f"only {len(groups)} perturbation groups")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=pathlib.Path, default=pathlib.Path(__file__).with_name("pairs.jsonl"))
    parser.add_argument("--stats", action="store_true", help="print counts per slice and label")
    parser.add_argument("--check", action="store_true", help="validate the written file and exit 1 on problems")
    args = parser.parse_args(argv)
    rows = build()
    with args.output.open("w", encoding="utf-8", newline="\n") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    if args.stats:
        print(stats(rows))
        print(f"distinct premises: {len({r['premise'] for r in rows})}")
    print(f"wrote {len(rows)} pairs to {args.output}", file=sys.stderr)
    if args.check:
        problems = validate(args.output)
        for p in problems:
            print(p, file=sys.stderr)
        print("valid" if not problems else f"{len(problems)} problems", file=sys.stderr)
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
