"""Write ``nli/dev.jsonl``: the development set for tuning NLI judges (``nli/pairs.jsonl`` stays held out).

Hand-written enterprise-policy pairs in the format of CONTRACT section 7 (see ``nli/README.md``, "Format"). Each
premise carries several hypotheses with their gold labels; perturbation groups carry a base pair, "flip" variants
(one consequential field changed, the label changes) and an "order" variant (sentences or passages reordered, the
label stays). Deterministic: running it twice writes the same file.

    python nli/build_dev.py            # writes nli/dev.jsonl next to this file
"""

from __future__ import annotations

import json
from pathlib import Path

E, N, C = "entailment", "neutral", "contradiction"

# slice -> (id prefix, [(premise, [(hypothesis, label), ...]), ...])
SLICES: dict[str, tuple[str, list[tuple[str, list[tuple[str, str]]]]]] = {}

SLICES["numeric"] = ("num", [
    ("Employees may carry over up to 5 days of unused annual leave into the next calendar year. Any days above "
     "that limit are forfeited on January 1.", [
         ("Up to five unused vacation days can be carried into the following year.", E),
         ("Employees can carry over up to 10 days of unused annual leave.", C),
         ("Employees can carry over five unused days, which must be used by March 31.", N),
     ]),
    ("The company reimburses home internet costs at a flat rate of $50 per month for employees approved for "
     "full-time remote work.", [
         ("Approved full-time remote workers receive $50 a month toward home internet.", E),
         ("Remote employees are reimbursed $75 per month for internet.", C),
         ("The internet allowance comes to $600 per year for approved full-time remote employees.", E),
         ("The $50 monthly internet allowance is also available to part-time remote workers.", N),
     ]),
    ("Passwords must be at least 14 characters long and are rotated every 90 days. Accounts lock after 5 "
     "consecutive failed sign-in attempts.", [
         ("Passwords need a minimum of 14 characters.", E),
         ("The minimum password length is 12 characters.", C),
         ("An account is locked after five failed login attempts in a row.", E),
         ("Accounts lock after three failed sign-in attempts.", C),
         ("Locked accounts are automatically unlocked after 30 minutes.", N),
     ]),
    ("Meal expenses during business travel are reimbursed up to €60 per day in Germany and up to €45 per day in "
     "all other EU countries. Alcohol is not reimbursable.", [
         ("In Germany, the daily meal limit on business trips is 60 euros.", E),
         ("The daily meal allowance in France is €60.", C),
         ("The daily meal allowance in Germany is €45.", C),
         ("Meal receipts must be submitted within 14 days.", N),
     ]),
    ("The IT service desk aims to respond to priority 1 incidents within 15 minutes and to resolve them within 4 "
     "hours. Priority 3 tickets are answered within two business days.", [
         ("Priority 1 incidents should receive a response within a quarter of an hour.", E),
         ("P1 incidents are targeted for resolution within four hours.", E),
         ("Priority 1 incidents are resolved within 8 hours.", C),
         ("Priority 3 tickets get a response within 2 business days.", E),
         ("Priority 2 tickets are answered within one business day.", N),
     ]),
    ("Purchases above $10,000 require approval from the department head and a second quote from an alternative "
     "supplier.", [
         ("A purchase of $12,500 needs the department head's approval.", E),
         ("Purchases above $5,000 require a second quote.", C),
         ("Purchases over ten thousand dollars need a second supplier quote.", E),
         ("Purchases above $10,000 also require CFO sign-off.", N),
     ]),
    ("New hires receive 20 days of paid time off per year, increasing to 25 days after five years of service.", [
        ("After five years of service, employees get 25 days of PTO annually.", E),
        ("New employees receive twenty paid days off each year.", E),
        ("New hires start with 15 days of paid time off.", C),
        ("After ten years of service, employees receive 30 days of PTO.", N),
        ("Employees with five years of service get 20 days of PTO.", C),
    ]),
    ("The company matches 401(k) contributions dollar for dollar up to 4% of base salary. Matching contributions "
     "vest fully after three years.", [
         ("The employer matches 401(k) contributions up to four percent of base salary.", E),
         ("The 401(k) match is capped at 6% of salary.", C),
         ("Company matching contributions vest after 3 years.", E),
         ("Matching contributions vest after two years.", C),
         ("Employees can contribute up to 50% of their salary to the 401(k).", N),
     ]),
    ("Backups of production databases are taken every 6 hours and retained for 35 days. Monthly snapshots are "
     "kept for 7 years.", [
         ("Production database backups run four times a day.", E),
         ("Backups are retained for 30 days.", C),
         ("Monthly snapshots are retained for seven years.", E),
         ("Backups are encrypted with AES-256.", N),
     ]),
    ("Visitors must be escorted at all times and may stay on site for no more than 8 hours per visit. Badges for "
     "contractors are valid for 12 months.", [
         ("Contractor badges expire after one year.", E),
         ("Contractor badges are valid for six months.", C),
         ("A visitor may remain on site for up to ten hours.", C),
         ("Visitors must sign an NDA before entering.", N),
     ]),
    ("The parental leave policy provides 16 weeks of fully paid leave to the primary caregiver and 6 weeks to the "
     "secondary caregiver.", [
         ("Primary caregivers receive sixteen weeks of paid parental leave.", E),
         ("Secondary caregivers get 6 weeks of paid leave.", E),
         ("Secondary caregivers receive 10 weeks of paid leave.", C),
         ("Primary caregivers receive 12 weeks of paid leave.", C),
         ("Parental leave can be taken within 12 months of the birth.", N),
     ]),
    ("Laptops are replaced on a four-year cycle; engineering staff are eligible for replacement every three "
     "years.", [
         ("Engineers can get a new laptop every 3 years.", E),
         ("Standard laptops are refreshed every 4 years.", E),
         ("All employees receive new laptops every two years.", C),
         ("Replaced laptops are donated to local schools.", N),
     ]),
    ("Mileage for personal vehicles used on company business is reimbursed at 0.30 EUR per kilometre.", [
        ("Business use of a private car is reimbursed at 30 cents per km.", E),
        ("Mileage is reimbursed at €0.42 per kilometre.", C),
        ("Mileage claims require a logbook.", N),
    ]),
    ("The data retention schedule keeps customer support transcripts for 18 months, after which they are "
     "deleted.", [
         ("Support transcripts are kept for a year and a half.", E),
         ("Support transcripts are deleted after 24 months.", C),
         ("Support transcripts are anonymised before deletion.", N),
     ]),
])

SLICES["dates"] = ("date", [
    ("Open enrollment for 2025 benefits runs from November 4 to November 22, 2024. Changes take effect on "
     "January 1, 2025.", [
         ("Benefit elections made during open enrollment become effective on 1 January 2025.", E),
         ("Open enrollment closes on November 22, 2024.", E),
         ("Open enrollment ends on November 30, 2024.", C),
         ("Benefit changes take effect on February 1, 2025.", C),
         ("Late enrollment requests are accepted until December 6, 2024.", N),
     ]),
    ("The annual security awareness training must be completed by 31 March 2025.", [
        ("Employees have until March 31, 2025 to finish the security awareness training.", E),
        ("The deadline for security awareness training is 2025-03-31.", E),
        ("The security awareness training is due by 30 April 2025.", C),
        ("Employees who miss the deadline lose network access.", N),
    ]),
    ("Fiscal year 2024 began on July 1, 2023 and ends on June 30, 2024. Budget submissions for the next fiscal "
     "year are due by April 15.", [
         ("FY2024 ends on 30 June 2024.", E),
         ("Fiscal year 2024 started in July 2023.", E),
         ("Fiscal year 2024 ends on December 31, 2024.", C),
         ("Budget submissions are due by March 15.", C),
         ("Budget submissions must be approved by the CFO.", N),
     ]),
    ("The office will be closed from December 24 through January 1 for the winter break and reopens on Thursday, "
     "January 2.", [
         ("The office reopens on January 2 after the winter break.", E),
         ("The office is closed on December 27.", E),
         ("The office reopens on Monday, January 6.", C),
         ("Employees on call during the break receive double pay.", N),
     ]),
    ("Expense reports must be submitted within 30 days of the end of the trip.", [
        ("Travel expenses have to be filed no later than 30 days after the trip ends.", E),
        ("Expense reports must be submitted within 60 days of the trip.", C),
        ("Expense reports for a trip that ended on June 1 are due by July 1.", E),
        ("Expense reports filed late are not reimbursed.", N),
    ]),
    ("Support for Windows 10 devices on the corporate network ends on October 14, 2025; devices must be upgraded "
     "to Windows 11 before that date.", [
         ("Windows 10 devices must be upgraded before 14 October 2025.", E),
         ("Windows 10 support on the corporate network ends in 2026.", C),
         ("Windows 10 support ends on October 14, 2024.", C),
         ("IT will upgrade devices automatically over the weekend.", N),
     ]),
    ("Quarterly access reviews are performed in the first two weeks of January, April, July and October.", [
        ("Access reviews take place every quarter, in January, April, July and October.", E),
        ("Access reviews are performed twice a year.", C),
        ("Access reviews are performed in March, June, September and December.", C),
        ("Access reviews are carried out by the internal audit team.", N),
    ]),
    ("The lease for the Boston office expires on 28 February 2026, with an option to renew for five years that "
     "must be exercised by 31 August 2025.", [
         ("The renewal option for the Boston lease must be exercised by August 31, 2025.", E),
         ("The Boston office lease expires in February 2026.", E),
         ("The Boston lease expires on 28 February 2027.", C),
         ("The renewal option must be exercised by 31 December 2025.", C),
         ("The landlord has agreed to a rent freeze upon renewal.", N),
     ]),
    ("Payroll is processed on the 25th of each month; when the 25th falls on a weekend, salaries are paid on the "
     "preceding Friday.", [
         ("Salaries are paid on the 25th of every month.", E),
         ("If the 25th is a Saturday, pay arrives on the Friday before.", E),
         ("Salaries are paid on the last business day of the month.", C),
         ("When the 25th is a Sunday, salaries are paid the following Monday.", C),
         ("Bonuses are paid in the March payroll.", N),
     ]),
    ("Q3 results will be published on October 24, 2024, after a quiet period that starts on October 1.", [
        ("The quiet period begins on 1 October.", E),
        ("Third-quarter results are released on 24 October 2024.", E),
        ("Q3 results will be published on November 24, 2024.", C),
        ("The quiet period starts on September 15.", C),
        ("The results will be presented in a webcast.", N),
    ]),
])

SLICES["negation"] = ("neg", [
    ("Employees must not share their passwords with anyone, including IT staff.", [
        ("Passwords must never be shared, not even with the IT department.", E),
        ("Employees may share their passwords with IT staff.", C),
        ("Employees are allowed to share their passwords with colleagues.", C),
        ("IT staff will never ask for your password.", N),
        ("Sharing a password with IT staff is not allowed.", E),
    ]),
    ("Personal use of company laptops is permitted, provided it does not interfere with work duties.", [
        ("Employees may use their company laptop for personal purposes.", E),
        ("Personal use of company laptops is prohibited.", C),
        ("Employees cannot use company laptops for anything other than work.", C),
        ("Personal files on company laptops are backed up.", N),
        ("Company laptops can be used for personal tasks as long as work is not affected.", E),
    ]),
    ("A doctor's note is not required for sick leave of three days or fewer.", [
        ("Employees do not need a doctor's note for a two-day sick leave.", E),
        ("A doctor's note is required for any sick leave.", C),
        ("Sick leave of up to three days requires a medical certificate.", C),
        ("Sick leave is paid at 80% of salary.", N),
    ]),
    ("Contractors may not access the production environment without a named employee sponsor.", [
        ("Contractors need an employee sponsor to access production.", E),
        ("Contractors can access production without a sponsor.", C),
        ("Contractors are never allowed to access the production environment.", C),
        ("Sponsors must review contractor access monthly.", N),
        ("Without a named employee sponsor, contractors are not allowed into production.", E),
    ]),
    ("Business class travel is allowed only for flights longer than eight hours.", [
        ("Employees may fly business class on a ten-hour flight.", E),
        ("Business class is not permitted on flights shorter than eight hours.", E),
        ("Business class is allowed on all international flights.", C),
        ("Business class upgrades must be approved by a vice president.", N),
    ]),
    ("Customer data must never be stored on personal devices or personal cloud accounts.", [
        ("Storing customer data in a personal Dropbox account is not allowed.", E),
        ("Customer data may be stored on personal devices if encrypted.", C),
        ("Customer data may be stored on company-managed laptops.", N),
        ("Customer data can be kept on personal phones.", C),
    ]),
    ("Overtime must be approved in advance by the employee's manager.", [
        ("Employees need their manager's approval before working overtime.", E),
        ("Overtime does not require prior approval.", C),
        ("Overtime may be approved after the fact by HR.", C),
        ("Overtime is paid at 1.5 times the hourly rate.", N),
        ("Working overtime without your manager's prior approval is not allowed.", E),
    ]),
    ("Remote work from outside the country is not permitted for more than 20 working days per year.", [
        ("Employees can work remotely from abroad for up to 20 working days a year.", E),
        ("There is no limit on working remotely from another country.", C),
        ("Employees may work from abroad for 30 working days per year.", C),
        ("Working from abroad requires approval from the tax department.", N),
        ("Working from abroad for more than 20 working days a year is not allowed.", E),
    ]),
    ("Gifts from vendors worth more than $100 may not be accepted. Gifts below that amount must still be reported "
     "to Compliance.", [
         ("Employees cannot accept a vendor gift worth $250.", E),
         ("Employees may accept vendor gifts of any value if they report them.", C),
         ("Gifts under $100 do not need to be reported.", C),
         ("Gifts from customers are subject to the same limit.", N),
         ("Vendor gifts worth less than $100 must be reported to Compliance.", E),
     ]),
    ("The use of generative AI tools with confidential data is prohibited unless the tool has been approved by the "
     "security team.", [
         ("Only security-approved generative AI tools may be used with confidential data.", E),
         ("Employees can use any generative AI tool with confidential data.", C),
         ("Generative AI tools can never be used with confidential data.", C),
         ("The security team publishes the list of approved tools quarterly.", N),
         ("Confidential data must not be entered into generative AI tools that the security team has not approved.", E),
     ]),
    ("Managers may approve up to two days of bereavement leave; additional days require HR approval.", [
        ("HR must approve bereavement leave beyond two days.", E),
        ("Managers can approve five days of bereavement leave without HR.", C),
        ("Bereavement leave is unpaid.", N),
    ]),
    ("Employees are not eligible for the annual bonus if they joined after October 1.", [
        ("Someone who joined on November 15 is not eligible for the annual bonus.", E),
        ("Employees who join in December receive a prorated annual bonus.", C),
        ("All employees are eligible for the annual bonus regardless of start date.", C),
        ("The annual bonus is paid in February.", N),
    ]),
    ("MFA is mandatory for all remote access to the corporate network.", [
        ("Remote access to the corporate network requires multi-factor authentication.", E),
        ("MFA is optional for remote access.", C),
        ("Remote access without MFA is allowed for executives.", C),
        ("MFA is also required for on-site access.", N),
        ("Remote access to the corporate network is not possible without MFA.", E),
    ]),
])

SLICES["entity_swap"] = ("ent", [
    ("Expense reports over $5,000 must be approved by the Finance Director.", [
        ("The Finance Director approves expense reports above $5,000.", E),
        ("Expense reports over $5,000 must be approved by the HR Director.", C),
        ("Expense reports over $5,000 must be approved by the employee's line manager.", C),
        ("The Finance Director reviews expense reports weekly.", N),
    ]),
    ("Requests for new software licences are submitted through ServiceNow and approved by the IT Asset Management "
     "team.", [
         ("Software licence requests go through ServiceNow.", E),
         ("Software licence requests are submitted through Jira.", C),
         ("Software licence requests are approved by the Procurement team.", C),
         ("Licence requests are usually fulfilled within five days.", N),
         ("The IT Asset Management team approves requests for new software licences.", E),
     ]),
    ("The company's corporate travel agency is Amex GBT; hotel bookings made outside Amex GBT are not "
     "reimbursed.", [
         ("Hotels must be booked through Amex GBT to be reimbursed.", E),
         ("The corporate travel agency is BCD Travel.", C),
         ("Hotel bookings made through Booking.com are reimbursed.", C),
         ("Amex GBT offers a 24-hour support line.", N),
         ("Amex GBT is the company's corporate travel agency.", E),
     ]),
    ("Security incidents must be reported to the Security Operations Center at soc@example.com within one hour of "
     "discovery.", [
         ("Security incidents should be reported to the SOC within an hour.", E),
         ("Security incidents must be reported to the Legal department within one hour.", C),
         ("Incidents are reported to helpdesk@example.com.", C),
         ("The SOC is staffed around the clock.", N),
         ("Security incidents should be emailed to soc@example.com.", E),
     ]),
    ("The data protection officer, Maria Schmidt, is the contact for all GDPR subject access requests.", [
        ("GDPR subject access requests should be sent to Maria Schmidt.", E),
        ("The data protection officer is Anna Müller.", C),
        ("GDPR subject access requests should be sent to the CISO.", C),
        ("Maria Schmidt joined the company in 2019.", N),
    ]),
    ("Employees based in Canada are covered by the Sun Life health plan, while US employees are covered by "
     "Aetna.", [
         ("US employees have health coverage through Aetna.", E),
         ("Canadian employees are covered by Aetna.", C),
         ("US employees are covered by the Sun Life health plan.", C),
         ("The Aetna plan includes dental coverage.", N),
         ("Canadian employees are covered by the Sun Life health plan.", E),
     ]),
    ("The Dublin office is the EMEA headquarters and hosts the regional payroll team.", [
        ("The EMEA headquarters is in Dublin.", E),
        ("The London office is the EMEA headquarters.", C),
        ("The regional payroll team is based in Amsterdam.", C),
        ("The Dublin office has 400 employees.", N),
        ("The regional payroll team sits in the Dublin office.", E),
    ]),
    ("All production deployments must go through the Jenkins pipeline and be approved by the release manager.", [
        ("Production deployments require the release manager's approval.", E),
        ("Production deployments must go through GitHub Actions.", C),
        ("Production deployments are approved by the QA lead.", C),
        ("The Jenkins pipeline runs security scans.", N),
        ("Production deployments go through Jenkins.", E),
    ]),
    ("Vendor onboarding requires a security questionnaire reviewed by Third-Party Risk and a W-9 form collected by "
     "Accounts Payable.", [
         ("Accounts Payable collects the vendor's W-9 form.", E),
         ("The security questionnaire is reviewed by Accounts Payable.", C),
         ("Third-Party Risk collects the W-9 form.", C),
         ("Vendor onboarding takes about two weeks.", N),
         ("Third-Party Risk reviews the vendor security questionnaire.", E),
     ]),
    ("Laptop encryption is enforced with BitLocker on Windows devices and FileVault on macOS devices.", [
        ("Mac laptops are encrypted with FileVault.", E),
        ("Windows laptops are encrypted with FileVault.", C),
        ("macOS devices use BitLocker for encryption.", C),
        ("Encryption keys are escrowed in Intune.", N),
        ("Windows devices are encrypted with BitLocker.", E),
    ]),
    ("Performance reviews are conducted by the direct manager and calibrated by the HR Business Partner.", [
        ("The HR Business Partner calibrates performance reviews.", E),
        ("Performance reviews are conducted by the skip-level manager.", C),
        ("Performance reviews are calibrated by the CFO.", C),
        ("Performance reviews happen twice a year.", N),
        ("Performance reviews are carried out by the direct manager.", E),
    ]),
])

SLICES["multi_passage"] = ("multi", [
    ("Employees working from home may claim a one-time equipment allowance.\n\nThe one-time home office equipment "
     "allowance is $500 and requires manager approval.", [
         ("Employees working from home can claim a one-time allowance of $500.", E),
         ("Employees working from home may claim a one-time $800 equipment allowance.", C),
         ("Employees working from home can claim a $500 equipment allowance every year.", C),
         ("Home workers can claim a $500 allowance that also covers furniture bought before they joined.", N),
     ]),
    ("All laptops issued by IT are enrolled in Intune.\n\nDevices enrolled in Intune are automatically wiped after "
     "10 failed unlock attempts.", [
         ("Laptops issued by IT are wiped after ten failed unlock attempts.", E),
         ("IT-issued laptops are wiped after five failed unlock attempts.", C),
         ("IT-issued laptops are wiped after 10 failed attempts and then reimaged by the service desk.", N),
     ]),
    ("The Singapore office follows the APAC holiday calendar.\n\nThe APAC holiday calendar for 2025 includes "
     "Chinese New Year on January 29 and 30.", [
         ("The Singapore office observes Chinese New Year on 29 and 30 January 2025.", E),
         ("The Singapore office observes Chinese New Year on February 10 and 11, 2025.", C),
         ("The Singapore office also closes for Diwali.", N),
     ]),
    ("Travel to countries rated high risk requires approval from Corporate Security.\n\nTravel risk ratings are "
     "published by International SOS; Venezuela and Haiti are currently rated high risk.", [
         ("Travel to Haiti requires approval from Corporate Security.", E),
         ("Travel to Venezuela requires approval from the Legal team.", C),
         ("Travel to Haiti requires approval from Corporate Security and a vaccination certificate.", N),
     ]),
    ("Interns are classified as temporary employees.\n\nTemporary employees are not eligible for the employee stock "
     "purchase plan.", [
         ("Interns cannot participate in the employee stock purchase plan.", E),
         ("Interns are eligible for the employee stock purchase plan.", C),
         ("Interns are eligible for the annual bonus.", N),
     ]),
    ("The Helpdesk can be reached at extension 4357.\n\nOutside business hours, calls to the Helpdesk are routed to "
     "the on-call engineer.", [
         ("After hours, calling extension 4357 reaches the on-call engineer.", E),
         ("After hours, calls to extension 4357 go to voicemail.", C),
         ("The on-call engineer responds to after-hours calls within 30 minutes.", N),
     ]),
    ("Employees in Grade 7 and above are eligible for the executive health check.\n\nSenior managers are in "
     "Grade 8.", [
         ("Senior managers are eligible for the executive health check.", E),
         ("Senior managers are not eligible for the executive health check.", C),
         ("Senior managers receive an annual executive health check at a private clinic.", N),
     ]),
    ("Invoices are paid on net 45 terms from the date of receipt.\n\nThe invoice from Acme Logistics was received "
     "on March 1.", [
         ("The Acme Logistics invoice is due for payment by April 15.", E),
         ("The Acme Logistics invoice will be paid on net 30 terms.", C),
         ("The Acme Logistics invoice has been approved by the controller.", N),
     ]),
    ("Customer PII is classified as Restricted.\n\nRestricted data must be encrypted at rest and in transit.", [
        ("Customer PII must be encrypted both at rest and in transit.", E),
        ("Customer PII only needs to be encrypted in transit.", C),
        ("Customer PII must be encrypted with keys that are rotated every year.", N),
    ]),
    ("The parking garage at the Austin campus is reserved for employees with a valid permit.\n\nParking permits "
     "are issued by the Facilities team for $40 per month.", [
         ("Employees need a permit, issued by Facilities for $40 a month, to park in the Austin garage.", E),
         ("Austin parking permits cost $60 per month.", C),
         ("Austin parking permits are free for employees with disabilities.", N),
     ]),
    ("Employees on the Munich payroll are paid in euros.\n\nSalaries paid in euros are transferred on the last "
     "working day of the month.", [
         ("Munich payroll employees receive their salary on the last working day of each month.", E),
         ("Munich payroll employees are paid in US dollars.", C),
         ("Munich payroll employees receive a thirteenth-month salary.", N),
     ]),
])

SLICES["paraphrase"] = ("para", [
    ("Staff who wish to work remotely on a permanent basis must submit a request to their line manager and obtain "
     "approval from HR.", [
         ("Permanent remote work needs a request to one's manager and HR sign-off.", E),
         ("Employees can start working remotely for good without any HR involvement.", C),
         ("Permanent remote work requests are usually decided within two weeks.", N),
     ]),
    ("Employees are expected to lock their screens whenever they leave their desks.", [
        ("Staff should lock their computers when stepping away from their workstation.", E),
        ("Employees can leave their screens unlocked when away from their desks.", C),
    ]),
    ("Reimbursement claims lacking an itemised receipt will be rejected.", [
        ("Claims without a detailed receipt are not reimbursed.", E),
        ("Claims without an itemised receipt can still be paid if a manager approves them.", C),
        ("Receipts must be uploaded as PDF files.", N),
    ]),
    ("The company covers the cost of professional certifications relevant to the employee's role, up to one exam "
     "attempt per certification.", [
         ("The employer pays for one attempt at job-related certification exams.", E),
         ("The company pays for unlimited attempts at certification exams.", C),
         ("The company also pays for certification study materials.", N),
     ]),
    ("Before leaving the company, employees must return all company-owned equipment, including laptops, badges "
     "and phones.", [
         ("Departing employees have to hand back their company laptop, badge and phone.", E),
         ("Leavers may keep their company phone.", C),
         ("Equipment must be returned to the Facilities desk.", N),
     ]),
    ("Visitors are required to sign in at reception and wear a visitor badge that is visible at all times.", [
        ("Guests must register at the front desk and keep their visitor pass visible.", E),
        ("Visitors do not need to sign in at reception.", C),
        ("Visitor badges must be returned at the end of the day.", N),
    ]),
    ("Phishing emails should be reported using the Report Phish button in Outlook rather than forwarded to "
     "colleagues.", [
         ("Suspicious emails should be flagged with Outlook's Report Phish button instead of being forwarded.", E),
         ("Employees should forward phishing emails to their colleagues to warn them.", C),
         ("Reported phishing emails are analysed within one hour.", N),
     ]),
    ("New employees are assigned a buddy from their team who helps them settle in during their first month.", [
        ("Each new hire gets a teammate as a buddy to help during the first month.", E),
        ("New hires are assigned a buddy from another department.", C),
        ("Buddies receive a gift card for their help.", N),
    ]),
    ("Confidential documents must be shredded rather than placed in ordinary recycling bins.", [
        ("Confidential papers have to go in the shredder, not the normal recycling.", E),
        ("Confidential documents can be disposed of in regular recycling bins.", C),
    ]),
    ("The expense system automatically flags claims that exceed the policy limits for review by Finance.", [
        ("Claims above policy limits are automatically marked for Finance to review.", E),
        ("Claims above policy limits are rejected automatically without review.", C),
        ("Finance reviews flagged claims within three business days.", N),
    ]),
    ("Employees who relocate at the company's request are entitled to reimbursement of reasonable moving costs.", [
        ("If the company asks you to move, it pays reasonable relocation expenses.", E),
        ("Employees who relocate at the company's request must pay their own moving costs.", C),
        ("Relocation reimbursement is capped at $15,000.", N),
    ]),
    ("Software may be installed on corporate machines only from the approved Company Portal catalogue.", [
        ("Apps on company computers must come from the approved Company Portal.", E),
        ("Employees may install software from any website on their corporate laptop.", C),
        ("The Company Portal catalogue is updated weekly.", N),
    ]),
    ("Employees who witness harassment are encouraged to report it to HR or through the anonymous ethics "
     "hotline.", [
         ("Staff who see harassment can raise it with HR or via the anonymous ethics line.", E),
         ("Harassment reports can only be made in person to HR.", C),
         ("The ethics hotline is operated by an external provider.", N),
     ]),
])

SLICES["distractor"] = ("dist", [
    ("Employees travelling internationally must register their trip with the travel security portal.", [
        ("Employees travelling internationally must obtain a visa through the travel security portal.", N),
        ("International trips must be registered in the travel security portal.", E),
    ]),
    ("The company provides free flu vaccinations at the on-site clinic every October.", [
        ("The on-site clinic offers free COVID-19 boosters every October.", N),
        ("Free flu shots are offered at the on-site clinic each October.", E),
    ]),
    ("Managers are responsible for approving timesheets by Monday noon each week.", [
        ("Employees must submit their timesheets by Friday evening each week.", N),
        ("Managers approve timesheets every week.", E),
    ]),
    ("The VPN client must be updated to version 5.2 or later before March 1.", [
        ("The antivirus client must be updated before March 1.", N),
        ("The VPN client must be on version 5.2 or higher by March 1.", E),
    ]),
    ("Annual leave requests of more than two weeks require approval from the department head.", [
        ("Sick leave of more than two weeks requires approval from the department head.", N),
        ("Sick leave of more than two weeks requires a medical certificate.", N),
    ]),
    ("The London office cafeteria serves breakfast from 7:30 to 9:30.", [
        ("The London office gym opens at 7:30.", N),
        ("Breakfast is served in the London cafeteria until 9:30.", E),
    ]),
    ("Corporate credit cards may be used for client entertainment with prior approval.", [
        ("Corporate credit cards may be used for personal expenses with prior approval.", N),
        ("Client entertainment on a corporate card requires approval beforehand.", E),
    ]),
    ("The quarterly all-hands meeting is recorded and posted on the intranet within two days.", [
        ("Team meetings are recorded and posted on the intranet.", N),
        ("Recordings of the quarterly all-hands appear on the intranet within two days.", E),
    ]),
    ("Server rooms are protected by badge readers and CCTV cameras.", [
        ("Server rooms are protected by fingerprint scanners.", N),
        ("Office entrances are monitored by CCTV cameras.", N),
    ]),
    ("Employees can request a standing desk through the Facilities portal.", [
        ("Employees can request an ergonomic chair through the Facilities portal.", N),
        ("Standing desks can be ordered via the Facilities portal.", E),
    ]),
    ("The Security team runs a phishing simulation every quarter.", [
        ("The Security team runs a penetration test every quarter.", N),
        ("Employees who fail a phishing simulation must retake security training.", N),
    ]),
    ("Company-paid mobile phone plans include unlimited domestic calls.", [
        ("Company-paid mobile phone plans include unlimited international roaming.", N),
        ("Unlimited domestic calling is part of company-paid mobile plans.", E),
    ]),
    ("Job candidates are reimbursed for travel to on-site interviews.", [
        ("New hires are reimbursed for travel on their first day.", N),
        ("Candidates are reimbursed for hotel accommodation during on-site interviews.", N),
    ]),
    ("The finance team closes the books on the fifth business day of each month.", [
        ("The finance team publishes the monthly management report on the fifth business day.", N),
        ("The monthly close is completed by the fifth business day.", E),
    ]),
    ("Printers on every floor require badge authentication before releasing a print job.", [
        ("Scanners on every floor require badge authentication before sending a scan.", N),
        ("You have to tap your badge at the printer before a job prints.", E),
    ]),
])

SLICES["specifics"] = ("spec", [
    ("Employees can work from home up to two days per week.", [
        ("Employees can work from home up to two days per week, on Mondays and Fridays.", N),
        ("Remote work is allowed for at most two days a week.", E),
    ]),
    ("The company offers an employee assistance programme that provides confidential counselling.", [
        ("The employee assistance programme provides up to six free counselling sessions per year.", N),
        ("Confidential counselling is available through the employee assistance programme.", E),
    ]),
    ("Laptops must be encrypted.", [
        ("Laptops must be encrypted using AES-256.", N),
        ("Laptops must be encrypted by the IT department within 24 hours of being issued.", N),
    ]),
    ("All new suppliers must pass a security assessment before contracts are signed.", [
        ("All new suppliers must pass a security assessment conducted by an external auditor.", N),
        ("Contracts with new suppliers are signed only after a security assessment is passed.", E),
    ]),
    ("Employees receive a wellness stipend each year.", [
        ("Employees receive an annual wellness stipend of $300.", N),
        ("Employees receive a yearly wellness stipend that can be spent on gym memberships.", N),
    ]),
    ("The company pays for business class on long-haul flights.", [
        ("The company pays for business class on long-haul flights booked with British Airways.", N),
        ("Long-haul flights can be taken in business class at the company's expense.", E),
    ]),
    ("Incident post-mortems are written for every Sev-1 outage.", [
        ("Post-mortems are written for every Sev-1 outage and published within five business days.", N),
        ("Every Sev-1 outage gets a post-mortem.", E),
    ]),
    ("Access badges must be worn visibly while on company premises.", [
        ("Access badges must be worn visibly on a red lanyard while on company premises.", N),
        ("Employees must display their access badge while on site.", E),
    ]),
    ("The legal team reviews all customer contracts.", [
        ("The legal team reviews all customer contracts within three business days.", N),
        ("Customer contracts are reviewed by the legal team.", E),
    ]),
    ("Unused training budget does not roll over to the next year.", [
        ("Unused training budget of up to $2,000 does not roll over to the next year.", N),
        ("Training budget that is not spent cannot be carried into the next year.", E),
        ("Unused training budget is carried forward to the following year.", C),
    ]),
    ("Employees may expense a hotel room when travelling on business.", [
        ("Employees may expense a four-star hotel room when travelling on business.", N),
        ("Hotel rooms on business trips can be expensed.", E),
    ]),
    ("Source code must be stored in the company's GitHub Enterprise instance.", [
        ("Source code must be stored in the company's GitHub Enterprise instance in private repositories with "
         "branch protection.", N),
        ("Source code may be stored on personal GitLab accounts.", C),
    ]),
    ("New managers attend a leadership training programme.", [
        ("New managers attend a leadership training programme in their first 90 days.", N),
        ("Leadership training is provided for new managers.", E),
    ]),
    ("Employee referrals that lead to a hire are rewarded with a bonus.", [
        ("Referral bonuses are paid after the new hire completes six months.", N),
        ("Referrals that result in a hire earn a bonus.", E),
        ("Referrals that lead to a hire are not rewarded.", C),
    ]),
    ("Conference attendance is funded from the team's training budget.", [
        ("Conference attendance is funded from the team's training budget, including flights and two hotel "
         "nights.", N),
        ("Conference costs come out of the team training budget.", E),
        ("Conference attendance is funded centrally by HR, not from team budgets.", C),
    ]),
])

LONG_TRAVEL = (
    "Section 4. Business Travel. 4.1 Purpose. This section sets out how employees plan, book and claim business "
    "travel so that trips are safe, cost-effective and compliant with tax rules. It applies to all employees, "
    "contractors travelling at the company's expense, and candidates invited to interviews. 4.2 Booking. All "
    "flights, rail journeys and hotels must be booked through the corporate travel portal at least 14 days before "
    "departure whenever possible. Bookings made later than that must include a short justification in the trip "
    "request. Economy class is the standard for flights under six hours; premium economy may be booked for flights "
    "between six and ten hours, and business class only for flights longer than ten hours or with written approval "
    "from a vice president. 4.3 Accommodation. Hotel rates are capped at $250 per night in New York, London and "
    "Tokyo and at $180 per night elsewhere, excluding taxes. Employees who stay with friends or family instead of a "
    "hotel may claim a flat $40 per night. 4.4 Ground transport. Taxis and ride-hailing services may be used "
    "between airports and hotels; rental cars require approval from the employee's manager and must be the compact "
    "class unless four or more employees share the car. 4.5 Meals. Meal costs are reimbursed at actual cost up to "
    "the daily limits published by Finance; alcohol is reimbursable only at client dinners approved in advance. "
    "4.6 Claims. Expense claims must be submitted in the expense system within 30 days of returning, with itemised "
    "receipts for every item above $25. Claims submitted after 90 days will not be reimbursed. 4.7 Safety. "
    "Travellers must register with the travel security service and keep their contact details current during the "
    "trip. 4.8 Exceptions. Any exception to this section requires written approval from the CFO."
)
LONG_ACCESS = (
    "Information Security Standard IS-02: Access Control. Scope. This standard applies to every system that stores "
    "or processes company data, whether hosted on premises, in a public cloud or by a software-as-a-service vendor. "
    "System owners are accountable for applying it and for documenting any deviation in the risk register. "
    "Accounts. Every user must have a unique account; shared accounts are permitted only for break-glass access to "
    "infrastructure and must be stored in the privileged access vault. Service accounts must have a named human "
    "owner and may not be used for interactive login. Authentication. Multi-factor authentication is required for "
    "all remote access, for all administrative access and for every SaaS application that supports single sign-on. "
    "Hardware security keys are mandatory for administrators of the identity provider. Passwords, where still used, "
    "must be at least 14 characters and must not be reused across the last 24 passwords. Authorisation. Access is "
    "granted on the principle of least privilege and must be approved by the system owner. Privileged roles are "
    "granted for a maximum of 12 months and must be re-approved at the end of that period. Reviews. User access to "
    "critical systems is reviewed every quarter, and access to all other systems twice a year. Accounts of leavers "
    "are disabled within 24 hours of their last working day, and accounts that have been inactive for 60 days are "
    "disabled automatically. Logging. Authentication events are logged centrally and retained for at least 13 "
    "months. Exceptions. Exceptions to this standard may be granted by the CISO for up to six months and must be "
    "recorded in the risk register with a remediation plan."
)
LONG_LEAVE = (
    "Leave Policy (United Kingdom). 1. Introduction. This policy explains the types of leave available to "
    "employees of the UK entity and how to request them. It should be read together with the employee handbook and "
    "the flexible working policy. 2. Annual leave. Full-time employees are entitled to 25 days of annual leave per "
    "holiday year in addition to the eight UK bank holidays. The holiday year runs from 1 January to 31 December. "
    "Part-time employees receive a pro-rata entitlement. Up to five days of unused leave may be carried over to the "
    "following year and must be used by 31 March, after which they are lost. Leave requests should be made in the "
    "HR system at least two weeks in advance for periods longer than three days. 3. Sickness absence. Employees "
    "must notify their manager before 10:00 on the first day of absence. For absences of more than seven calendar "
    "days, a fit note from a doctor is required. Company sick pay is paid at full salary for up to 10 days in any "
    "rolling 12-month period, after which statutory sick pay applies. 4. Family leave. Eligible employees receive "
    "26 weeks of maternity or adoption leave at full pay, followed by up to 13 weeks of statutory pay. Paternity "
    "leave is four weeks at full pay and can be taken in one block or as two separate weeks within the first year. "
    "5. Compassionate leave. Up to five days of paid compassionate leave are available on the death of a close "
    "family member. 6. Jury service. Employees called for jury service continue to receive their normal pay and "
    "must provide a copy of the summons to HR. 7. Unpaid leave. Requests for unpaid leave of up to one month are "
    "considered by the line manager and HR jointly."
)

SLICES["long_passage"] = ("long", [
    (LONG_TRAVEL, [
        ("Hotel stays in London are capped at $250 a night before taxes.", E),
        ("Hotel rates in Paris are capped at $250 per night.", C),
        ("Employees staying with family instead of a hotel can claim $40 per night.", E),
        ("Employees staying with family can claim $60 per night.", C),
        ("Rental cars need approval from the employee's manager.", E),
        ("Rental cars must be booked with Hertz.", N),
        ("Premium economy may be booked for a flight of eight hours.", E),
        ("Business class is allowed on any flight longer than six hours.", C),
        ("Itemised receipts are needed for every expense above $25.", E),
        ("Claims submitted after 60 days will not be reimbursed.", C),
        ("Travellers must register with the travel security service before booking any flight.", N),
    ]),
    (LONG_ACCESS, [
        ("Service accounts cannot be used for interactive login.", E),
        ("Service accounts may be used for interactive login if they have a named owner.", C),
        ("Administrators of the identity provider must use hardware security keys.", E),
        ("Hardware security keys are optional for identity provider administrators.", C),
        ("Privileged roles must be re-approved every twelve months.", E),
        ("Privileged roles are granted for up to 24 months.", C),
        ("Access to critical systems is reviewed quarterly.", E),
        ("Access to critical systems is reviewed by the internal audit team.", N),
        ("Inactive accounts are disabled automatically after 90 days.", C),
        ("Accounts of leavers are disabled within one day of their last working day.", E),
        ("Mailboxes of leavers are kept for 30 days.", N),
    ]),
    (LONG_LEAVE, [
        ("Carried-over leave must be used by the end of March.", E),
        ("Up to ten days of unused leave may be carried over.", C),
        ("A fit note is needed for sickness absences of more than a week.", E),
        ("A fit note is required from the third day of absence.", C),
        ("Company sick pay covers up to 10 days at full salary in a rolling 12-month period.", E),
        ("Paternity leave is two weeks at full pay.", C),
        ("Paternity leave can be taken as two separate weeks within the first year.", E),
        ("HR can extend compassionate leave to ten days.", N),
        ("Employees must notify their manager before 10:00 on the first day of sickness absence.", E),
        ("Maternity leave at full pay can be started up to 11 weeks before the due date.", N),
    ]),
])

# Perturbation groups: base (premise, hypothesis, label); flips: (premise or None, hypothesis or None, label), None
# meaning "as in the base"; order: the base premise with its sentences (or passages) reordered, same label.
PERTURBATIONS: list[dict[str, object]] = [
    {"premise": "Contractors must complete security training before receiving system access. The training takes "
                "about 45 minutes.",
     "hypothesis": "Contractors have to finish security training before they get system access.", "label": E,
     "flips": [(None, "Contractors can receive system access before completing security training.", C),
               ("Contractors should complete security training within 30 days after receiving system access. The "
                "training takes about 45 minutes.", None, C)],
     "order": "The training takes about 45 minutes. Contractors must complete security training before receiving "
              "system access."},
    {"premise": "The help desk is open from 8:00 to 18:00 on weekdays. Weekend support is available by phone only.",
     "hypothesis": "The help desk is open until 6 pm on weekdays.", "label": E,
     "flips": [(None, "The help desk is open until 8 pm on weekdays.", C),
               ("The help desk is open from 8:00 to 20:00 on weekdays. Weekend support is available by phone only.",
                None, C)],
     "order": "Weekend support is available by phone only. The help desk is open from 8:00 to 18:00 on weekdays."},
    {"premise": "Employees may expense one business lunch per week with a client. The limit per lunch is $75 per "
                "person.",
     "hypothesis": "The client lunch limit is $75 per person.", "label": E,
     "flips": [(None, "The client lunch limit is $100 per person.", C),
               (None, "The client lunch limit is $75 per person, including tips and a bottle of wine.", N)],
     "order": "The limit per lunch is $75 per person. Employees may expense one business lunch per week with a "
              "client."},
    {"premise": "Remote employees are not eligible for the commuter benefit. The commuter benefit covers up to $120 "
                "per month of transit costs.",
     "hypothesis": "Remote employees can get the commuter benefit.", "label": C,
     "flips": [("Remote employees are also eligible for the commuter benefit. The commuter benefit covers up to "
                "$120 per month of transit costs.", None, E)],
     "order": "The commuter benefit covers up to $120 per month of transit costs. Remote employees are not eligible "
              "for the commuter benefit."},
    {"premise": "The marketing budget freeze applies to all discretionary spend until June 30. Essential renewals "
                "are exempt.",
     "hypothesis": "Discretionary marketing spend is frozen until June 30.", "label": E,
     "flips": [(None, "Discretionary marketing spend is frozen until September 30.", C),
               (None, "Essential renewals are also frozen until June 30.", C)],
     "order": "Essential renewals are exempt. The marketing budget freeze applies to all discretionary spend until "
              "June 30."},
    {"premise": "All customer-facing emails are reviewed by the Brand team.\n\nThe Brand team's review takes two "
                "business days.",
     "hypothesis": "Customer-facing emails go through a two-day review by the Brand team.", "label": E,
     "flips": [("All customer-facing emails are reviewed by the Brand team.\n\nThe Brand team's review takes five "
                "business days.", None, C),
               (None, "Customer-facing emails go through a two-day review by the Legal team.", C)],
     "order": "The Brand team's review takes two business days.\n\nAll customer-facing emails are reviewed by the "
              "Brand team."},
    {"premise": "Sales staff receive a company car after twelve months of service. Cars are replaced every four "
                "years.",
     "hypothesis": "Sales employees get a company car after a year of service.", "label": E,
     "flips": [(None, "Sales employees get a company car from their first day.", C),
               (None, "Sales employees get an electric company car after a year of service.", N)],
     "order": "Cars are replaced every four years. Sales staff receive a company car after twelve months of "
              "service."},
    {"premise": "Laptops must be returned within five business days of an employee's last day. Unreturned laptops "
                "are deducted from the final paycheck.",
     "hypothesis": "The cost of an unreturned laptop is taken out of the employee's final pay.", "label": E,
     "flips": [(None, "Unreturned laptops are written off without any charge to the employee.", C),
               ("Laptops must be returned within five business days of an employee's last day. Unreturned laptops "
                "are reported to Security.", None, N)],
     "order": "Unreturned laptops are deducted from the final paycheck. Laptops must be returned within five "
              "business days of an employee's last day."},
    {"premise": "Access to the finance data warehouse requires approval from the Controller. Requests are made "
                "through the access portal.",
     "hypothesis": "The Controller must approve access to the finance data warehouse.", "label": E,
     "flips": [(None, "The CIO must approve access to the finance data warehouse.", C),
               (None, "The Controller must approve access to the finance data warehouse within 24 hours.", N)],
     "order": "Requests are made through the access portal. Access to the finance data warehouse requires approval "
              "from the Controller."},
    {"premise": "Employees may not use personal email accounts for company business. Company email is available on "
                "mobile devices through Outlook.",
     "hypothesis": "Personal email accounts may be used for company business.", "label": C,
     "flips": [(None, "Company business must not be conducted through personal email accounts.", E)],
     "order": "Company email is available on mobile devices through Outlook. Employees may not use personal email "
              "accounts for company business."},
    {"premise": "The minimum notice period for resignation is one month for staff and three months for managers.",
     "hypothesis": "Managers must give three months' notice when resigning.", "label": E,
     "flips": [(None, "Managers must give one month's notice when resigning.", C),
               (None, "Managers must give three months' notice when resigning, which HR can waive.", N)],
     "order": "The minimum notice period for resignation is three months for managers and one month for staff."},
    {"premise": "Cloud resources without an owner tag are shut down after 7 days. Owners are notified by email two "
                "days before shutdown.",
     "hypothesis": "Untagged cloud resources are shut down after a week.", "label": E,
     "flips": [("Cloud resources without an owner tag are shut down after 30 days. Owners are notified by email two "
                "days before shutdown.", None, C),
               (None, "Untagged cloud resources are shut down after a week and deleted after a month.", N)],
     "order": "Owners are notified by email two days before shutdown. Cloud resources without an owner tag are shut "
              "down after 7 days."},
    {"premise": "The company covers tuition for job-related degree programmes up to $5,250 per calendar year. "
                "Employees who leave within one year of reimbursement must repay it.",
     "hypothesis": "Employees who leave within a year of tuition reimbursement have to pay it back.", "label": E,
     "flips": [(None, "Employees who leave within a year of tuition reimbursement do not have to pay it back.", C),
               (None, "The company covers tuition up to $10,000 per calendar year.", C)],
     "order": "Employees who leave within one year of reimbursement must repay it. The company covers tuition for "
              "job-related degree programmes up to $5,250 per calendar year."},
    {"premise": "Employees in the Sales department are on the variable pay plan.\n\nThe variable pay plan pays "
                "commission quarterly.",
     "hypothesis": "Sales employees are paid commission every quarter.", "label": E,
     "flips": [("Employees in the Sales department are on the variable pay plan.\n\nThe variable pay plan pays "
                "commission monthly.", None, C),
               (None, "Sales employees are paid commission every quarter, capped at 50% of base salary.", N)],
     "order": "The variable pay plan pays commission quarterly.\n\nEmployees in the Sales department are on the "
              "variable pay plan."},
    {"premise": "Data classified as Internal may be shared with contractors under NDA. Data classified as "
                "Confidential may not be shared outside the company.",
     "hypothesis": "Confidential data can be shared with contractors under NDA.", "label": C,
     "flips": [(None, "Internal data can be shared with contractors under NDA.", E)],
     "order": "Data classified as Confidential may not be shared outside the company. Data classified as Internal "
              "may be shared with contractors under NDA."},
    {"premise": "Visitors to the laboratory must wear safety glasses. Lab coats are provided at the entrance.",
     "hypothesis": "Safety glasses are required for lab visitors.", "label": E,
     "flips": [(None, "Safety glasses are optional for lab visitors.", C),
               (None, "Safety glasses are required for lab visitors and are handed out at the entrance.", N)],
     "order": "Lab coats are provided at the entrance. Visitors to the laboratory must wear safety glasses."},
    {"premise": "Annual salary reviews take place in April. Increases are effective from May 1.",
     "hypothesis": "Salary increases take effect on May 1.", "label": E,
     "flips": [(None, "Salary increases take effect on April 1.", C),
               ("Annual salary reviews take place in April. Increases are effective from July 1.", None, C)],
     "order": "Increases are effective from May 1. Annual salary reviews take place in April."},
    {"premise": "The company does not reimburse fines for traffic or parking violations. Tolls incurred on business "
                "trips are reimbursable.",
     "hypothesis": "Parking fines are not reimbursed.", "label": E,
     "flips": [(None, "Parking fines incurred on business trips are reimbursed.", C)],
     "order": "Tolls incurred on business trips are reimbursable. The company does not reimburse fines for traffic "
              "or parking violations."},
    {"premise": "Security patches rated critical must be applied within 72 hours.\n\nThe OpenSSL update released on "
                "Tuesday is rated critical.",
     "hypothesis": "The OpenSSL update must be applied within 72 hours.", "label": E,
     "flips": [("Security patches rated critical must be applied within 72 hours.\n\nThe OpenSSL update released on "
                "Tuesday is rated low.", None, N),
               (None, "The OpenSSL update must be applied within two weeks.", C)],
     "order": "The OpenSSL update released on Tuesday is rated critical.\n\nSecurity patches rated critical must be "
              "applied within 72 hours."},
    {"premise": "Employees must complete the code of conduct attestation every year. New hires complete it within "
                "30 days of joining.",
     "hypothesis": "New hires must complete the code of conduct attestation within 30 days.", "label": E,
     "flips": [(None, "New hires have 90 days to complete the code of conduct attestation.", C)],
     "order": "New hires complete it within 30 days of joining. Employees must complete the code of conduct "
              "attestation every year."},
]


def rows() -> list[dict[str, str]]:
    """Every dev pair, in a fixed order."""
    out: list[dict[str, str]] = []
    for slice_name, (prefix, items) in SLICES.items():
        n = 0
        for premise, hypotheses in items:
            for hypothesis, label in hypotheses:
                n += 1
                out.append({"id": f"{prefix}-{n:03d}", "premise": premise, "hypothesis": hypothesis,
                            "label": label, "slice": slice_name})
    for g, group in enumerate(PERTURBATIONS, start=1):
        gid = f"pert-{g:03d}"
        premise, hypothesis, label = str(group["premise"]), str(group["hypothesis"]), str(group["label"])
        out.append({"id": gid, "premise": premise, "hypothesis": hypothesis, "label": label,
                    "slice": "perturbation", "group": gid})
        flips = group["flips"]
        assert isinstance(flips, list)
        for f, (fp, fh, fl) in enumerate(flips, start=1):
            assert fl != label, gid
            out.append({"id": f"{gid}-f{f}", "premise": fp or premise, "hypothesis": fh or hypothesis,
                        "label": fl, "slice": "perturbation", "group": gid, "perturbation": "flip"})
        out.append({"id": f"{gid}-o1", "premise": str(group["order"]), "hypothesis": hypothesis, "label": label,
                    "slice": "perturbation", "group": gid, "perturbation": "order"})
    return out


def main() -> None:
    path = Path(__file__).with_name("dev.jsonl")
    with path.open("w", encoding="utf-8") as f:
        for row in rows():
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"wrote {path} ({len(rows())} pairs)")


if __name__ == "__main__":
    main()
