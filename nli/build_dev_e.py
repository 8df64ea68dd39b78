"""Build nli/dev_e.jsonl: a hand-labelled NLI development set (University of Aldermoor).

Every premise and hypothesis below was written by hand for a fictional university, its
regulations, staff rules and IT services. The builder only numbers the pairs within each
slice, joins the two passages of multi-passage pairs, applies perturbation flips (a
replacement that must occur exactly once in the text it changes) and builds order variants.
No randomness, no network: running it twice gives byte-identical output.

    python nli/build_dev_e.py            # write dev_e.jsonl next to this file
    python nli/build_dev_e.py --check    # validate the written file
    python nli/build_dev_e.py --stats    # counts per slice and label

Labels follow nli/README.md, "How the labels were decided". Weekdays were checked against the
real 2026-2027 calendar; business-day arithmetic ignores public holidays.
"""

import sys
from pathlib import Path

import _devset  # the builders' shared writing, checks and command line (nli/_devset.py)

E, N, C = "entailment", "neutral", "contradiction"
LABELS = (E, N, C)
SLICES = {
    "numeric": "num",
    "dates": "date",
    "negation": "neg",
    "entity": "ent",
    "multi_passage": "multi",
    "paraphrase": "para",
    "distractor": "dist",
    "added_specifics": "spec",
    "long_passage": "long",
    "perturbation": "pert",
}
OUT = Path(__file__).with_name("dev_e.jsonl")

# ---------------------------------------------------------------------------
# numeric: (premise, hypothesis, label)
# ---------------------------------------------------------------------------

FEES_UG = (
    "Tuition fees 2026/27 (undergraduate, per year)\n"
    "Home students: £9,535 | International students: £24,000 | Placement year: £1,905 | "
    "Study abroad year: £1,430"
)
INSTALMENTS = (
    "Regulation 12.3 Payment by instalments. Students who pay their own tuition fees may pay in three "
    "equal instalments: the first at enrolment, the second in January and the third in April. A student "
    "who chooses to pay by instalments is charged an administration fee of £50 per academic year."
)
LOANS = (
    "Loan allowances\n"
    "• Undergraduates: up to 15 items, standard loan period 3 weeks\n"
    "• Postgraduates: up to 25 items, standard loan period 6 weeks\n"
    "• Staff: up to 40 items, standard loan period 12 weeks\n"
    "Short-loan items may be borrowed for 24 hours by all users."
)
FINES = (
    "Q: How much are overdue fines?\n"
    "A: Overdue standard loans are not fined, but your borrowing rights are suspended until the item is "
    "returned. Items that another reader has requested accrue a fine of £1 per day, up to a maximum of "
    "£20 per item. Short loans are fined at £1 per hour."
)
LATE = (
    "Regulation 9.2 Late submission. Work submitted up to 24 hours after the deadline receives a "
    "deduction of 10 percentage points. Work submitted more than 24 hours and up to five working days "
    "late is capped at the pass mark (40% for undergraduate modules, 50% for postgraduate taught "
    "modules). Work submitted more than five working days late receives a mark of zero."
)
QUOTAS = (
    "Kestrel storage quotas\n"
    "/home: 50 GB per user, backed up nightly\n"
    "/scratch: 5 TB per user, not backed up; files untouched for 60 days are deleted\n"
    "/project: 10 TB per research group by default, expandable on request; snapshots every 6 hours"
)
JOBS = (
    "Job limits on the standard partition are a maximum wall time of 72 hours per job, at most 512 CPU "
    "cores in use per user at any one time, and no more than 200 jobs queued per user. The gpu partition "
    "allows a maximum of 4 GPUs per job and a 48-hour wall time."
)
WITHDRAW = (
    "Tuition fee liability on withdrawal (full-time home undergraduates)\n"
    "Withdrawal within 14 days of the start of term 1: no fee charged\n"
    "Withdrawal later in term 1: 25% of the annual fee\n"
    "Withdrawal in term 2: 50% of the annual fee\n"
    "Withdrawal in term 3: 100% of the annual fee"
)
EXCELLENCE = (
    "Aldermoor Excellence Scholarship\n"
    "Value: £3,000 per year for up to three years of undergraduate study, paid as a tuition fee "
    "discount.\n"
    "Eligibility: home fee status and a household income of £35,000 or less.\n"
    "Continuation: an average mark of 60% or above in each year of study."
)
CONF_FUND = (
    "Conference travel fund (research staff). Each eligible member of staff may claim up to £1,200 per "
    "financial year for conference attendance, of which no more than £400 may be spent on registration "
    "fees. Claims must be submitted within 30 days of return."
)
WAM = (
    "Workload allocation model, section 2. A full-time lecturer on a teaching and research contract is "
    "allocated 1,650 hours per year, of which 40% is teaching, 40% research and 20% administration and "
    "citizenship."
)
PASSWORD = (
    "Passwords for Aldermoor accounts must be at least 14 characters long and are not subject to "
    "periodic expiry. After 10 consecutive failed sign-in attempts the account is locked for 15 minutes."
)
EXTENSIONS = (
    "Extensions. A module leader may grant an extension of up to 7 calendar days. Extensions of 8 to 14 "
    "days require approval from the School Extenuating Circumstances Panel. No extension beyond 14 days "
    "is available; students who need longer should apply to defer the assessment."
)
HALL_FEES = (
    "Accommodation fees 2026/27. Harrowgate Hall: standard room £168 per week; en-suite room £196 per "
    "week. All contracts run for 40 weeks, and rent is paid in three instalments."
)
FEC = (
    "Costing research grants. UKRI grants are awarded at 80% of the full economic cost (fEC) of the "
    "project; the University meets the remaining 20% from its own funds."
)
VISA_ATT = (
    "Attendance monitoring. International students studying on a Student visa must attend at least 80% "
    "of the timetabled sessions in each module. Attendance below 70% in any four-week period triggers a "
    "meeting with the Student Visa Compliance team."
)
PROBATION = (
    "Probation. New academic staff serve a probationary period of three years. For professional "
    "services staff the probationary period is six months, which may be extended once by up to three "
    "months."
)
PRINT = (
    "Printing credit: every undergraduate receives £15 of free printing credit at the start of each "
    "academic year. A4 black-and-white prints cost 5p per side and A4 colour prints 25p per side. Unused "
    "credit does not carry over."
)

NUMERIC = [
    (FEES_UG, "As an international undergraduate you would pay £24,000 in tuition for 2026/27.", E),
    (FEES_UG, "A home undergraduate pays £14,465 less per year than an international one.", E),
    (FEES_UG, "During a placement year the fee drops to £1,430.", C),
    (FEES_UG, "Home postgraduate students are charged £9,535 for 2026/27.", N),
    (INSTALMENTS, "Choosing to pay in instalments adds fifty pounds to your costs each year.", E),
    (INSTALMENTS, "Self-funded students can split their fees into four instalments.", C),
    (LOANS, "As a postgraduate you can have up to twenty-five items out at once, each for 42 days.", E),
    (LOANS, "Staff loan periods are four times as long as those for undergraduates.", E),
    (LOANS, "Short-loan items can be kept for two days.", C),
    (FINES, "A requested book returned 30 days late would cost you £20.", E),
    (FINES, "Late standard loans are fined at a rate of £1 per day.", C),
    (FINES, "The most you can be fined for a single short-loan item is £20.", N),
    (LATE, "An undergraduate essay worth 65% that is handed in 12 hours late would receive 55%.", E),
    (LATE, "Work that arrives six working days late gets no marks.", E),
    (LATE, "Handing work in up to 48 hours late costs you 10 percentage points.", C),
    (LATE, "Work handed in less than a day late loses 10% of the mark it would otherwise have received.", C),
    (QUOTAS, "Project space is snapshotted four times a day.", E),
    (QUOTAS, "Files in scratch that have not been touched for eight weeks are deleted.", C),
    (QUOTAS, "Each research group can have at most 20 TB of project storage.", N),
    (JOBS, "One user can run two 256-core jobs on the standard partition at the same time.", E),
    (JOBS, "GPU jobs are allowed the same wall time as standard jobs.", C),
    (JOBS, "A single job on the gpu partition may use up to 512 CPU cores.", N),
    (WITHDRAW, "On a £9,535 fee, withdrawing in term 2 means you owe £4,767.50.", E),
    (WITHDRAW, "Leaving in the third term means paying three-quarters of the annual fee.", C),
    (WITHDRAW, "A part-time student who withdraws in term 2 pays 50% of the annual fee.", N),
    (EXCELLENCE, "Across three years the Excellence Scholarship is worth up to £9,000.", E),
    (EXCELLENCE, "To keep the scholarship you need to average at least 55% each year.", C),
    (EXCELLENCE, "A home student from a household earning £40,000 would qualify.", C),
    (EXCELLENCE, "A household income of exactly £35,000 does not rule you out.", E),
    (CONF_FUND, "At most a third of your annual conference allowance can go on registration fees.", E),
    (CONF_FUND, "Research staff can claim up to £1,600 a year for conferences.", C),
    (CONF_FUND, "Conference claims have to be made within four weeks of getting back.", C),
    (CONF_FUND, "Any part of the allowance you do not use rolls over into the next financial year.", N),
    (WAM, "That works out at 660 hours of teaching a year.", E),
    (WAM, "Research takes up half of a lecturer's allocated hours.", C),
    (WAM, "Part-time lecturers are allocated 825 hours per year.", N),
    (PASSWORD, "Your password needs a minimum of 12 characters.", C),
    (PASSWORD, "Ten wrong passwords in a row lock you out for a quarter of an hour.", E),
    (EXTENSIONS, "The longest extension you can be given is a fortnight.", E),
    (EXTENSIONS, "With Panel approval, extensions of up to 21 days are possible.", C),
    (HALL_FEES, "Over the full contract, an en-suite room in Harrowgate Hall costs £7,840.", E),
    (HALL_FEES, "A standard room in Harrowgate Hall costs £6,820 for the whole contract.", C),
    (HALL_FEES, "Each of the three rent instalments for a standard room is £2,240.", N),
    (FEC, "On a project with a full economic cost of £250,000, UKRI would provide £200,000.", E),
    (FEC, "UKRI funds 100% of the directly incurred costs.", N),
    (VISA_ATT, "Student visa holders can miss up to a fifth of a module's timetabled sessions without breaching the attendance requirement.", E),
    (VISA_ATT, "The minimum attendance for students on a Student visa is 70% of sessions.", C),
    (PROBATION, "A professional services employee's probation can last at most nine months.", E),
    (PROBATION, "Professional services probation can be extended twice.", C),
    (PRINT, "Your free credit covers 300 single-sided black-and-white A4 pages.", E),
    (PRINT, "Postgraduates receive £10 of free printing credit.", N),
    (PRINT, "Any credit you do not use is carried forward into the next year.", C),
]

# ---------------------------------------------------------------------------
# dates: (premise, hypothesis, label). Weekdays checked against 2026-2027.
# ---------------------------------------------------------------------------

TERMS = (
    "Term dates 2026/27\n"
    "Autumn term: Monday 28 September 2026 – Friday 11 December 2026\n"
    "Spring term: Monday 11 January 2027 – Friday 26 March 2027\n"
    "Summer term: Monday 26 April 2027 – Friday 11 June 2027"
)
INST_DATES = (
    "Instalment due dates for 2026/27: first instalment at registration; second instalment 15 January "
    "2027; third instalment 15 April 2027. Payments more than 28 days overdue may lead to the suspension "
    "of IT and library access."
)
RESITS = (
    "Resit examinations for 2026/27 take place from Monday 16 August to Friday 27 August 2027. Students "
    "must confirm their intention to resit through the Student Portal by 23 July 2027. Resit results are "
    "published on 10 September 2027."
)
MISCONDUCT = (
    "Academic Misconduct Procedure, paragraph 4.6. The student will be notified of the allegation in "
    "writing and must respond within 10 working days of the notification. Where a hearing is required, "
    "it will be held no sooner than 5 working days after the student's response has been received."
)
EXPIRY_STU = (
    "Leaving Aldermoor: student IT accounts remain active for 90 days after your official course end "
    "date. After that, your mailbox and OneDrive files are permanently deleted and cannot be recovered."
)
VACATION = (
    "Christmas vacation loans: standard loans borrowed from Monday 30 November 2026 onwards are due back "
    "on Tuesday 12 January 2027."
)
ETHICS_DATES = (
    "Faculty Research Ethics Committee – meeting dates 2026/27 (submission deadline in brackets)\n"
    "14 October 2026 (23 September 2026)\n"
    "11 November 2026 (21 October 2026)\n"
    "9 December 2026 (18 November 2026)\n"
    "13 January 2027 (16 December 2026)"
)
GRADUATION = (
    "Winter graduation ceremonies will be held in the Great Hall, Harrowgate Campus, on Tuesday 8 and "
    "Wednesday 9 December 2026. Graduands must register to attend by Friday 6 November 2026; guest "
    "tickets are released on 13 November."
)
CONTRACT = (
    "Your accommodation contract begins at 10:00 on Saturday 19 September 2026 and ends at 10:00 on "
    "Saturday 26 June 2027."
)
LEAVE_APPS = (
    "Applications for research leave in 2027/28 must be submitted to the Head of School by 31 January "
    "2027. They will be considered by the Faculty Research Leave Committee at its March 2027 meeting."
)
MFA_ROLLOUT = (
    "From 1 March 2027, multi-factor authentication (MFA) will be required for all access to Aldermoor "
    "email from outside the campus network. Staff must register a second factor before that date; "
    "students have until 31 March 2027."
)
EXAM_HOURS = (
    "Main Library opening hours. During the summer exam period (Monday 10 May – Sunday 6 June 2027) the "
    "Main Library is open 24 hours a day, seven days a week. Outside the exam period it closes at midnight."
)
DEFERRAL = (
    "Requests to defer an assessment to the next available opportunity must reach the Academic Registry "
    "no later than five working days after the original assessment date."
)
STAFF_EXIT = (
    "Staff accounts are disabled at 23:59 on the last day of employment. Email forwarding to a personal "
    "address can be requested for up to 30 days after that date."
)
ENROL_WINDOW = (
    "Online enrolment for returning students opens on Monday 7 September 2026 and must be completed by "
    "the end of the second week of the autumn term, which begins on 28 September 2026."
)
SCHOL_DEADLINE = (
    "Q: When is the deadline for the Aldermoor Excellence Scholarship?\n"
    "A: Applications for 2027 entry open on 1 December 2026 and close at noon on 26 February 2027. "
    "Decisions are emailed by the end of April."
)

DATES = [
    (TERMS, "The autumn term lasts eleven weeks.", E),
    (TERMS, "Teaching starts again after Christmas on 4 January 2027.", C),
    (TERMS, "The summer term begins exactly one month after the spring term ends.", E),
    (INST_DATES, "Your second instalment is due on a Friday.", E),
    (INST_DATES, "If the January instalment is still unpaid on 13 February 2027, your IT and library access may be suspended.", E),
    (INST_DATES, "The second instalment is payable in February.", C),
    (RESITS, "You need to confirm that you're resitting by Friday 23 July 2027.", E),
    (RESITS, "You will find out your resit results in August.", C),
    (RESITS, "Some resit exams are scheduled for Saturday 21 August 2027.", N),
    (MISCONDUCT, "If you are notified of an allegation on Monday 2 November 2026, your response is due by Monday 16 November 2026.", E),
    (MISCONDUCT, "A hearing could take place the day after you submit your response.", C),
    (MISCONDUCT, "The hearing must take place within 20 working days of your response.", N),
    (EXPIRY_STU, "If your course officially ends on 30 June 2027, you can still use your account on 20 September 2027.", E),
    (EXPIRY_STU, "With a course end date of 30 June 2027, your OneDrive files will still be there in December 2027.", C),
    (VACATION, "A standard loan you take out on 3 December 2026 is due back on 12 January 2027.", E),
    (VACATION, "Vacation loans have to be returned on a Monday.", C),
    (ETHICS_DATES, "To be considered at the November meeting, your application must be in by 21 October 2026.", E),
    (ETHICS_DATES, "Every submission deadline is exactly three weeks before its meeting.", C),
    (ETHICS_DATES, "An application submitted on 1 December 2026 will be reviewed at the 9 December meeting.", C),
    (ETHICS_DATES, "All of the committee's 2026/27 meetings listed fall on a Wednesday.", E),
    (GRADUATION, "Registration for the winter ceremonies closes on a Friday, a week before guest tickets come out.", E),
    (GRADUATION, "Guest tickets are released on a Friday in December.", C),
    (CONTRACT, "Your tenancy lasts exactly 40 weeks.", E),
    (CONTRACT, "Your contract starts on Friday 18 September 2026.", C),
    (CONTRACT, "You may move in early, on 17 September, for an extra charge.", N),
    (LEAVE_APPS, "The deadline for 2027/28 research leave applications falls on a Sunday.", E),
    (LEAVE_APPS, "You will be told whether your leave is approved in March 2027.", N),
    (LEAVE_APPS, "Applications have to reach the Head of School by the end of February 2027.", C),
    (MFA_ROLLOUT, "From March 2027 MFA will also be needed to read email on campus.", N),
    (EXAM_HOURS, "On Sunday 30 May 2027 you could be studying in the Main Library at 3 a.m.", E),
    (EXAM_HOURS, "The library is open around the clock for four weeks starting on 10 May 2027.", E),
    (EXAM_HOURS, "The Main Library stays open all night on 8 June 2027.", C),
    (DEFERRAL, "For an exam on Thursday 14 January 2027, your deferral request must be in by Thursday 21 January 2027.", E),
    (DEFERRAL, "If your exam was on Thursday 14 January 2027, the Registry needs your deferral request by Monday 18 January.", C),
    (STAFF_EXIT, "Your staff account stays active for a week after you leave.", C),
    (ENROL_WINDOW, "Enrolment for returning students opens three weeks before the autumn term starts.", E),
    (SCHOL_DEADLINE, "Scholarship applications close at 12:00 on the last Friday of February 2027.", E),
    (SCHOL_DEADLINE, "You'll hear back about your application in May.", C),
    (SCHOL_DEADLINE, "Late applications will be accepted until 5 March 2027.", N),
    (GRADUATION, "Each graduand can bring up to two guests to the ceremony.", N),
    (INST_DATES, "A late payment charge of £25 is added once an instalment is more than 28 days overdue.", N),
    (TERMS, "Reading week in the autumn term begins on Monday 2 November 2026.", N),
]

# ---------------------------------------------------------------------------
# negation: (premise, hypothesis, label)
# ---------------------------------------------------------------------------

SELF_PLAG = (
    "Regulation 7.4(b) A student may not submit the same piece of work, in whole or in substantial part, "
    "for assessment in more than one module, unless the module leaders of both modules have given "
    "written permission in advance."
)
ETHICS_SCOPE = (
    "Ethics approval is required for all research involving human participants, including online "
    "surveys and interviews. Research that uses only publicly available, anonymised datasets does not "
    "require ethics approval, but it must still be registered with the Research Office."
)
DROPBOX = (
    "Q: Can I use my personal Dropbox for research data?\n"
    "A: Not for data classified as Confidential or Highly Restricted. Public and Internal data may be "
    "stored on personal cloud services, although the University recommends OneDrive."
)
LEAVE_PROB = (
    "Research leave (sabbatical) scheme, clause 3. Staff who are still on probation are not eligible "
    "for research leave. Eligible staff may apply once they have completed six semesters of continuous "
    "service."
)
LOGIN_NODES = (
    "Using the login nodes\n"
    "Do not run computationally intensive work on the login nodes. Editing files, compiling code and "
    "submitting jobs are permitted. Processes using more than one CPU core for over 10 minutes will be "
    "terminated without warning."
)
MFA_SCOPE = (
    "MFA is mandatory for all staff and for postgraduate research students. Undergraduate and taught "
    "postgraduate students are strongly encouraged, but not required, to enable MFA."
)
RESIT_RULE = (
    "Regulation 5.2 A student who fails a module at the first attempt is entitled to one resit. A second "
    "resit is permitted only if the Board of Examiners accepts that extenuating circumstances affected "
    "the first resit."
)
EXPULSION = (
    "Tuition fee refunds are not available to students who are expelled following a disciplinary "
    "hearing."
)
LIB_FOOD = (
    "Eating and drinking in the Library. Food is not permitted in the silent study areas. Drinks in "
    "covered containers are allowed throughout the building."
)
SOFTWARE = (
    "MATLAB is licensed for all staff and students, on both university-owned and personal devices. SPSS "
    "may be installed on personal devices by staff only; students must use it on managed lab PCs or "
    "through AppsAnywhere."
)
PLAG_PROC = (
    "Plagiarism procedure, step 1. A first minor offence by a student at Level 4 is dealt with by the "
    "module leader and does not result in a formal record. All other offences are referred to the "
    "Academic Conduct Panel."
)
HALL_SAFETY = (
    "Fire safety in halls. Candles, incense and halogen heaters are prohibited in all halls of "
    "residence. Fairy lights are permitted if they are LED and battery-operated."
)
SELF_CERT = (
    "Extenuating circumstances. You do not need to provide medical evidence for a self-certified absence "
    "of up to 7 days. Absences of more than 7 days must be supported by independent evidence."
)
BIG_STORAGE = (
    "Storage allocations. Only the Director of Research Computing can approve a Research Data Store "
    "allocation of more than 50 TB for a single project."
)
REG_FEES = (
    "Regulation 3.8 No student shall be permitted to register for a programme of study unless they have "
    "paid their tuition fees or made arrangements acceptable to the University to pay them."
)
HARDSHIP = (
    "Hardship Fund. International students are not excluded from the Hardship Fund: they may apply, but "
    "they must show that they had adequate funds in place at the start of their course."
)
TRAVEL_RISK = (
    "Staff travelling to a country on the FCDO 'advise against all travel' list must obtain prior "
    "approval from the University Travel Risk Group. University travel insurance is not valid for such "
    "a trip unless this approval has been given."
)
PHD_WORK = (
    "Doctoral students on a full-time studentship must not undertake paid work of more than 6 hours a "
    "week during term without their supervisor's agreement. Unpaid volunteering is not restricted."
)
ANON_MARK = (
    "Anonymous marking applies to all examinations and to coursework worth more than 30% of a module. "
    "It does not apply to presentations, performances or dissertations, where the student's identity "
    "cannot reasonably be hidden."
)

NEGATION = [
    (SELF_PLAG, "You can reuse an old essay in a second module only with both module leaders' written permission obtained beforehand.", E),
    (SELF_PLAG, "Reusing substantial parts of earlier work in another module is fine as long as you reference it.", C),
    (SELF_PLAG, "Written permission from either one of the two module leaders is sufficient.", C),
    (SELF_PLAG, "Quoting a single sentence of your own earlier essay in a new assignment is prohibited.", N),
    (ETHICS_SCOPE, "A project that only analyses public anonymised datasets doesn't need ethics approval, though it still has to be registered.", E),
    (ETHICS_SCOPE, "You don't need ethics approval to run an online survey.", C),
    (ETHICS_SCOPE, "Research using only public, anonymised data is exempt from all administrative requirements.", C),
    (ETHICS_SCOPE, "Research on animals does not need ethics approval.", N),
    (DROPBOX, "You're not allowed to keep Confidential research data on a personal Dropbox.", E),
    (DROPBOX, "Internal data must be stored on OneDrive.", C),
    (DROPBOX, "It is not forbidden to put Public data on your own Dropbox.", E),
    (LEAVE_PROB, "Once you pass probation, research leave is granted automatically.", N),
    (LOGIN_NODES, "You will be warned before a multi-core process on a login node is killed.", C),
    (LOGIN_NODES, "Single-core processes on the login nodes are never terminated.", N),
    (MFA_SCOPE, "As a PhD researcher you have to use MFA.", E),
    (MFA_SCOPE, "Undergraduates are obliged to switch on MFA.", C),
    (MFA_SCOPE, "Students on taught master's programmes may choose not to enable MFA.", E),
    (RESIT_RULE, "If the Board accepts your extenuating circumstances, you will be given a second resit.", N),
    (RESIT_RULE, "Without accepted extenuating circumstances, you cannot attempt a failed module a third time.", E),
    (RESIT_RULE, "Every student who fails a module is allowed two resits.", C),
    (EXPULSION, "Students expelled after a hearing receive a pro-rata refund of their fees.", C),
    (EXPULSION, "Students who are suspended pending a hearing cannot claim a refund.", N),
    (LIB_FOOD, "Eating is allowed in the group study rooms.", N),
    (SOFTWARE, "Students are not allowed to install SPSS on their own laptops.", E),
    (SOFTWARE, "Students may only use MATLAB on managed lab PCs.", C),
    (PLAG_PROC, "A first-year student's first minor plagiarism offence won't go on their formal record.", E),
    (PLAG_PROC, "A second minor offence by a Level 4 student is handled by the module leader.", C),
    (PLAG_PROC, "A minor first offence at Level 5 does not lead to a formal record.", N),
    (HALL_SAFETY, "Mains-powered fairy lights are permitted in halls.", N),
    (HALL_SAFETY, "Halogen heaters are allowed if they have a safety certificate.", C),
    (SELF_CERT, "For a five-day illness, you won't need a doctor's note.", E),
    (SELF_CERT, "A ten-day absence can be self-certified without any evidence.", C),
    (SELF_CERT, "Self-certification cannot be used for a missed exam.", N),
    (BIG_STORAGE, "A 60 TB allocation for one project can be signed off by the Head of School.", C),
    (BIG_STORAGE, "An 80 TB project allocation cannot go ahead without the Director of Research Computing's approval.", E),
    (BIG_STORAGE, "A 30 TB allocation needs no approval at all.", N),
    (REG_FEES, "You can't register until your fees are paid or an acceptable payment arrangement is in place.", E),
    (REG_FEES, "Once you have paid your fees you are guaranteed to be registered.", N),
    (HARDSHIP, "International students are eligible to apply to the Hardship Fund.", E),
    (HARDSHIP, "International applicants don't need to show anything about their finances when they started the course.", C),
    (TRAVEL_RISK, "Without the Travel Risk Group's approval, university insurance will not cover a trip to a country the FCDO advises against all travel to.", E),
    (TRAVEL_RISK, "Trips to countries where the FCDO advises against all but essential travel need Travel Risk Group approval.", N),
    (PHD_WORK, "A full-time funded PhD student can't take a 10-hour-a-week paid job in term unless the supervisor agrees.", E),
    (PHD_WORK, "Part-time doctoral students may not do more than 6 hours of paid work a week.", N),
    (ANON_MARK, "Your dissertation will not be marked anonymously.", E),
    (ANON_MARK, "A coursework essay worth 20% of the module must be marked anonymously.", N),
    (ANON_MARK, "Exams are not always marked anonymously.", C),
]

# ---------------------------------------------------------------------------
# entity: (premise, hypothesis, label)
# ---------------------------------------------------------------------------

FIN_OFFICES = (
    "Who to contact about money\n"
    "The Student Finance Office, in the Lister Building on Harrowgate Campus, handles fee payments and "
    "instalment plans. Scholarship and bursary queries go to the Scholarships Office in Westbrook House, "
    "Westbrook Campus."
)
KESTREL = (
    "The Kestrel HPC cluster is hosted in the Marlow Point data centre and uses the Slurm workload "
    "manager. Its predecessor, the Merlin cluster at Harrowgate, which used PBS Pro, was decommissioned "
    "in July 2026."
)
NHS_ETHICS = (
    "Research ethics review routes. Projects in the Faculty of Medicine and Health that involve NHS "
    "patients are reviewed by the NHS Health Research Authority (HRA), not by the University. All other "
    "projects in the Faculty are reviewed by the Faculty Research Ethics Committee (FREC)."
)
MFA_APP = (
    "Setting up MFA. Aldermoor uses Microsoft Authenticator as its MFA app. Staff who cannot use a "
    "smartphone can request a YubiKey hardware token from the IT Service Desk."
)
VPN_CLIENT = (
    "Aldermoor Connect, the University VPN, is based on Palo Alto GlobalProtect. It replaced the Cisco "
    "AnyConnect service in September 2025."
)
UREC = (
    "University Research Ethics Committee (UREC)\n"
    "Chair: Professor Ines Okafor (Faculty of Social Sciences)\n"
    "Deputy Chair: Dr Tomasz Wren (Faculty of Science and Engineering)\n"
    "Secretary: Ms Aisha Rahman (Research Governance Office)"
)
SABB_APPROVAL = (
    "Research leave applications are approved by the Dean of Faculty on the recommendation of the Head "
    "of School."
)
KL_FEES = (
    "Kuala Lumpur campus. Tuition fees for students at the Kuala Lumpur campus are set in Malaysian "
    "ringgit and are paid to the Aldermoor Malaysia finance team, not to the Student Finance Office in "
    "the UK."
)
GRANT_ROUTE = (
    "Applying for external funding. All applications to external funders must be submitted through the "
    "Research Office using Worktribe. Applications to the Wellcome Trust additionally require sign-off "
    "from the Faculty Associate Dean for Research."
)
HALLS_MAP = (
    "Accommodation by campus: students based at Harrowgate Campus are offered rooms in Harrowgate Hall "
    "or Fenwick Court. Students at Westbrook Campus are housed in Mill Lane Residences."
)
ILL = (
    "Inter-library loans. Requests are processed by the Document Supply team, based at the Kelsey Street "
    "Library. Postgraduate researchers receive 10 free requests per academic year."
)
DATA_GOV = (
    "The Information Governance Office owns the University's data classification scheme and reviews it "
    "every two years. Requests for exceptions are approved by the Chief Information Security Officer "
    "(CISO)."
)
PHD_TRAVEL = (
    "Travel funding for doctoral researchers is administered centrally by the Doctoral College, not by "
    "individual Schools. Each doctoral researcher may apply for up to £500 over the course of their "
    "studies."
)
NVIVO = (
    "NVivo is available under a site licence funded by the Faculty of Social Sciences. Staff in other "
    "faculties must buy individual licences through the IT Shop."
)
EXAM_BOARD = (
    "Boards of Examiners. The Board of Examiners for each programme is chaired by the Head of "
    "Department. The External Examiner must attend the Board but does not chair it."
)
STUDENT_VISA = (
    "Visa letters and CAS. Confirmation of Acceptance for Studies (CAS) statements are issued by the "
    "International Admissions team. Once you are enrolled, letters confirming your student status for "
    "visa purposes are issued by the Student Records Office."
)
BACKUP_SITE = (
    "Backups of the Research Data Store are replicated nightly from the primary data centre at Marlow "
    "Point to the secondary site at Westbrook. Tape copies are kept off-site by Iron Mountain for seven "
    "years."
)

ENTITY = [
    (FIN_OFFICES, "The Student Finance Office is located on Westbrook Campus.", C),
    (KESTREL, "You submit Kestrel jobs through Slurm.", E),
    (KESTREL, "The Kestrel cluster is housed at Harrowgate.", C),
    (NHS_ETHICS, "A Medicine and Health study that recruits NHS patients is approved by the FREC.", C),
    (NHS_ETHICS, "A Medicine and Health project with no NHS patients goes to the Faculty Research Ethics Committee.", E),
    (NHS_ETHICS, "Social Sciences projects involving NHS patients are reviewed by the HRA.", N),
    (MFA_APP, "Your second factor is generated by Google Authenticator.", C),
    (MFA_APP, "Hardware tokens are issued by the IT Service Desk.", E),
    (MFA_APP, "Students without a smartphone can ask for a YubiKey.", N),
    (VPN_CLIENT, "The University's VPN runs on Palo Alto's GlobalProtect.", E),
    (VPN_CLIENT, "Aldermoor Connect is a Cisco AnyConnect service.", C),
    (UREC, "Dr Wren chairs the University Research Ethics Committee.", C),
    (UREC, "The committee's deputy chair comes from Science and Engineering.", E),
    (SABB_APPROVAL, "The Head of School makes the final decision on research leave.", C),
    (SABB_APPROVAL, "Your Head of School puts forward the recommendation and the Dean gives the approval.", E),
    (SABB_APPROVAL, "Research leave also has to be approved by HR.", N),
    (KL_FEES, "Students at the Malaysian campus pay their fees to the Aldermoor Malaysia finance team.", E),
    (KL_FEES, "Kuala Lumpur students pay their fees to the UK Student Finance Office.", C),
    (GRANT_ROUTE, "A Wellcome Trust bid needs sign-off from the Associate Dean for Research as well as submission via the Research Office.", E),
    (GRANT_ROUTE, "An EPSRC application needs the Associate Dean for Research to sign it off.", N),
    (HALLS_MAP, "If you study at Westbrook, you'll be housed in Mill Lane Residences.", E),
    (HALLS_MAP, "Fenwick Court is where Westbrook Campus students live.", C),
    (ILL, "The Document Supply team deals with inter-library loan requests.", E),
    (DATA_GOV, "Exceptions to the classification scheme are signed off by the CISO.", E),
    (DATA_GOV, "Exceptions are approved by the Information Governance Office alone.", C),
    (PHD_TRAVEL, "The Doctoral College runs travel funding for doctoral researchers.", E),
    (NVIVO, "An engineering lecturer who wants NVivo has to buy a licence through the IT Shop.", E),
    (NVIVO, "Students in the Business School can use NVivo free of charge.", N),
    (EXAM_BOARD, "The External Examiner chairs the Board of Examiners.", C),
    (EXAM_BOARD, "Your Head of Department chairs the Board that considers your programme.", E),
    (STUDENT_VISA, "Once you've enrolled, ask the Student Records Office for a letter confirming your status for your visa.", E),
    (STUDENT_VISA, "Your CAS is issued by the Student Records Office.", C),
    (BACKUP_SITE, "The Research Data Store's primary data centre is at Westbrook.", C),
    (FIN_OFFICES, "The Student Finance Office is open from 09:00 to 17:00 on weekdays.", N),
    (BACKUP_SITE, "The Westbrook site also holds a copy of the Kestrel /home directories.", N),
    (DATA_GOV, "Decisions by the CISO on exceptions can be appealed to the Information Governance Office.", N),
    (STUDENT_VISA, "Applications to extend your visa are handled by the International Office.", N),
]

# ---------------------------------------------------------------------------
# multi_passage: (passage_1, passage_2, hypothesis, label); joined with one blank line.
# Every entailment needs both passages.
# ---------------------------------------------------------------------------

PARTITIONS = (
    "Kestrel partitions\n"
    "standard – CPU nodes with 256 GB RAM, 72-hour wall-time limit\n"
    "highmem – CPU nodes with 1.5 TB RAM, 48-hour wall-time limit\n"
    "gpu – nodes with four A100 GPUs, 48-hour wall-time limit"
)
PART_RULES = (
    "Which partition should I use? Jobs requesting more than 256 GB of memory on a node must be "
    "submitted to the highmem partition. Jobs that need one or more GPUs must use the gpu partition."
)
CATERING = (
    "Halls overview. Harrowgate Hall and Fenwick Court are catered halls. Mill Lane Residences and "
    "Quayside are self-catered."
)
MEAL_PLAN = (
    "Contract terms, clause 6. Contracts for catered halls include a meal plan charged at £65 per week. "
    "The meal plan is non-refundable, including for meals that are not taken."
)
CLASS_DEFS = (
    "Data classification levels. Highly Restricted: special category personal data (for example health, "
    "ethnicity, religion or sexual orientation) and data under contractual security requirements. "
    "Confidential: all other personal data, and unpublished research results."
)
CLASS_STORAGE = (
    "Where can I store it? Highly Restricted data may be stored only in the Secure Research Environment "
    "(SRE). Confidential data may be stored in OneDrive or the Research Data Store, but never on personal "
    "devices."
)
IRISH_STATUS = (
    "Fee status assessment. Under the Common Travel Area arrangements, students from the Republic of "
    "Ireland are assessed as home students for fee purposes."
)
GRADES = (
    "Academic grades: Lecturer – grade 8; Senior Lecturer and Associate Professor – grade 9; Professor – "
    "grade 10."
)
FLIGHT_CLASS = (
    "Travel policy 4.2. Staff at grade 9 and above may book business class for flights with a scheduled "
    "duration of more than 8 hours. All other staff travel in economy."
)
KELSEY = (
    "Campuses. The Kelsey Street campus in the city centre is home to the Business School and the Law "
    "School."
)
PAPERCUT = (
    "Printing changes. From January 2027, students at the Kelsey Street campus will print through the new "
    "PaperCut system. All other campuses will continue to use Uniflow until August 2027."
)
PRIV_DEF = (
    "Q: Which accounts count as privileged?\n"
    "A: Any account with administrative rights on a server, on the HPC service or on a network device."
)
PRIV_RULE = (
    "Privileged accounts must use a hardware security key as their second factor. App-based codes and "
    "SMS are not accepted for these accounts."
)
CLIMBER = (
    "Dr Priya Natarajan (School of Geography) is Principal Investigator on the CLIMBER project, which is "
    "funded by the Leverhulme Trust."
)
LEVERHULME = (
    "Funder terms. Leverhulme Trust grants do not allow indirect costs to be claimed; the University "
    "covers these from its own funds."
)
LEVELS = (
    "Glossary. Level 4: first-year undergraduate modules. Level 5: second year. Level 6: final-year "
    "undergraduate modules. Level 7: master's-level modules."
)
RESIT_CAPS = (
    "Regulation 5.5 Marks for resit assessments are capped at 40% for modules at Levels 4 to 6 and at 50% "
    "for modules at Level 7."
)
STEM_DEPTS = (
    "Departments eligible for the Women in STEM Scholarship: Physics, Mathematics, Computer Science and "
    "Engineering."
)
STEM_AWARD = (
    "The Women in STEM Scholarship is worth £2,000 in the first year of study. It is open to female home "
    "students in an eligible department who achieved AAB or above at A level."
)
RDS_MAINT = (
    "From: IT Service Desk. Scheduled maintenance on the Research Data Store will take place on Saturday "
    "14 November 2026 from 08:00 to 14:00."
)
PROJECT_DEP = (
    "Kestrel filesystems. /project is provided by the Research Data Store; /home and /scratch are local "
    "to the cluster. While the Research Data Store is unavailable, jobs that read from /project will fail."
)
SEMESTERS = (
    "The academic year at Aldermoor is divided into two semesters: Semester 1 runs from September to "
    "January and Semester 2 from February to June."
)
LEAVE_ACCRUAL = (
    "Research leave. Eligible staff may take one semester of research leave after every six semesters of "
    "continuous service."
)
CHEM_HEAD = "School of Chemistry: Head of School – Professor Helen Achterberg; Director of Teaching – Dr Sam Ilori."
LEAVE_APPROVE = (
    "Research leave applications are approved by the Dean of Faculty on the recommendation of the Head of "
    "School."
)
RDS_BACKUP = (
    "Research Data Store (RDS). The RDS is backed up every night to the University's secondary data "
    "centre at Westbrook."
)
EC_PANEL = (
    "Extenuating circumstances claims are decided by the School EC Panel, which meets every two weeks "
    "during term."
)
EXT_RULE = (
    "Extensions of more than 7 days cannot be agreed by module leaders or personal tutors; they require "
    "approval from the School EC Panel."
)
SOCSCI = "The Faculty of Social Sciences comprises the Schools of Economics, Politics, Sociology and Social Work."
NVIVO_LIC = (
    "NVivo licensing. NVivo is available free of charge to staff and students of the Faculty of Social "
    "Sciences under a faculty site licence. Others must buy a licence through the IT Shop."
)
LAPSE = (
    "Leaving staff: an account is treated as 'lapsed' from the day after the last day of employment."
)
LAPSE_RULE = (
    "Data on lapsed accounts. OneDrive files belonging to a lapsed account are kept for 60 days and then "
    "deleted. The line manager may ask the Service Desk to transfer files before deletion."
)

MULTI = [
    (PARTITIONS, PART_RULES, "A job that needs 400 GB of memory on one node can run for no more than 48 hours.", E),
    (PARTITIONS, PART_RULES, "A GPU job can run for up to three days.", C),
    (PARTITIONS, PART_RULES, "A CPU-only job needing 100 GB of memory must be submitted to the standard partition.", N),
    (CATERING, MEAL_PLAN, "If you live in Fenwick Court, your contract includes a non-refundable £65-a-week meal plan.", E),
    (CATERING, MEAL_PLAN, "Residents of Quayside pay £65 a week for meals.", N),
    (CLASS_DEFS, CLASS_STORAGE, "Interview transcripts that record participants' religion have to be kept in the SRE.", E),
    (CLASS_DEFS, CLASS_STORAGE, "Participants' health records may be stored in the Research Data Store.", C),
    (CLASS_DEFS, CLASS_STORAGE, "Staff home addresses can be kept on a personal laptop.", C),
    (IRISH_STATUS, FEES_UG, "An undergraduate from the Republic of Ireland pays £9,535 a year in tuition.", E),
    (IRISH_STATUS, FEES_UG, "An undergraduate from France pays £24,000.", N),
    (GRADES, FLIGHT_CLASS, "A Senior Lecturer can fly business class on a ten-hour flight.", E),
    (GRADES, FLIGHT_CLASS, "Lecturers may book business class on flights longer than eight hours.", C),
    (GRADES, FLIGHT_CLASS, "A Professor can book business class for a five-hour flight.", N),
    (KELSEY, PAPERCUT, "From January 2027, students at the Law School will print using PaperCut.", E),
    (KELSEY, PAPERCUT, "Engineering students move to PaperCut in January 2027.", N),
    (PRIV_DEF, PRIV_RULE, "An admin account on the HPC service can't use Authenticator app codes as its second factor.", E),
    (PRIV_DEF, PRIV_RULE, "Administrator accounts on network switches may use SMS codes for MFA.", C),
    (PRIV_DEF, PRIV_RULE, "Ordinary student accounts must use a hardware security key.", N),
    (CLIMBER, LEVERHULME, "CLIMBER's indirect costs are met by the University rather than by the funder.", E),
    (CLIMBER, LEVERHULME, "Leverhulme pays the indirect costs of Dr Natarajan's project.", C),
    (LEVELS, RESIT_CAPS, "If you resit a final-year module and score 68%, your recorded mark will be 40%.", E),
    (LEVELS, RESIT_CAPS, "Resits of master's modules are capped at 40%.", C),
    (LEVELS, RESIT_CAPS, "Resit marks on foundation-year modules are capped at 40%.", N),
    (STEM_DEPTS, STEM_AWARD, "A female home student in Computer Science with A*AB could receive £2,000 in her first year.", E),
    (STEM_DEPTS, STEM_AWARD, "A female home student in Chemistry with AAA is eligible for the Women in STEM Scholarship.", C),
    (RDS_MAINT, PROJECT_DEP, "Kestrel jobs that read from /project on the morning of 14 November 2026 will fail.", E),
    (SEMESTERS, LEAVE_ACCRUAL, "Staff become eligible for a semester of research leave after every three years of continuous service.", E),
    (SEMESTERS, LEAVE_ACCRUAL, "You can take a semester of research leave after two years of continuous service.", C),
    (CHEM_HEAD, LEAVE_APPROVE, "In the School of Chemistry, leave applications are recommended by Professor Achterberg.", E),
    (CHEM_HEAD, LEAVE_APPROVE, "Professor Achterberg approves research leave for chemistry staff.", C),
    (RDS_BACKUP, PROJECT_DEP, "Kestrel's /scratch filesystem is backed up every night.", N),
    (EC_PANEL, EXT_RULE, "A ten-day extension is decided by a panel that meets fortnightly in term time.", E),
    (EC_PANEL, EXT_RULE, "Your personal tutor can approve a ten-day extension.", C),
    (SOCSCI, NVIVO_LIC, "Students in the School of Politics can use NVivo for free.", E),
    (SOCSCI, NVIVO_LIC, "A Sociology lecturer needs to buy an NVivo licence from the IT Shop.", C),
    (SOCSCI, NVIVO_LIC, "History students get NVivo free of charge under the faculty site licence.", C),
    (LAPSE, LAPSE_RULE, "If your last day of employment is 30 June 2027, your OneDrive files are kept until at least 29 August 2027.", E),
    (LAPSE, LAPSE_RULE, "A leaver can ask for their own files to be transferred to a personal account.", N),
    (RDS_BACKUP, PROJECT_DEP, "Files in Kestrel's /project area are copied every night to the Westbrook data centre.", E),
]

# ---------------------------------------------------------------------------
# paraphrase: (premise, hypothesis, label)
# ---------------------------------------------------------------------------

EARLY_WD = (
    "Where a student withdraws from the University before the end of the second week of the first term, "
    "no liability for tuition fees is incurred."
)
INFOSEC = (
    "The University reserves the right to suspend access to IT facilities for any user who fails to "
    "complete the mandatory information security training within 30 days of being asked to do so."
)
FEEDBACK = (
    "Marks and feedback for coursework are released to students via the Student Portal no later than 20 "
    "working days after the submission deadline. This does not apply to dissertations."
)
VISA_REFUND = (
    "Applicants who are refused a visa and who provide a copy of the refusal letter will receive a full "
    "refund of their tuition deposit."
)
DDA = (
    "Holders of the Dean's Doctoral Award are expected to undertake up to 6 hours of teaching per week. "
    "They may not take on other paid work for the University without the consent of the Graduate School."
)
DEVICE_LOSS = (
    "Staff must report the loss or theft of any device holding University data to the IT Service Desk "
    "without delay, and in any case within 24 hours."
)
SCRATCH_WARN = (
    "Scratch storage is intended for temporary files only. Because it is not backed up, anything you keep "
    "there could be permanently lost if a disk fails."
)
LATE_ENROL = (
    "Students who have not completed online enrolment by the end of the second week of term will have "
    "their registration withdrawn, unless the Academic Registry has agreed an extension."
)
PGR_REVIEW = (
    "Postgraduate research students are reviewed annually. Progression to the next year of study depends "
    "on a satisfactory review by two academics, at least one of whom must be independent of the "
    "supervisory team."
)
TENDER = (
    "Purchasing equipment on grants. Items costing more than £10,000 including VAT must be bought through "
    "a competitive tender run by Procurement. Items below this threshold may be bought directly with a "
    "University purchasing card."
)
TEACH_FOCUS = (
    "Staff on teaching-focused contracts are not expected to produce research outputs. They are, however, "
    "expected to engage in the scholarship of teaching and learning, and this counts towards promotion."
)
BORDERLINE = (
    "Where a student's final average lies no more than 2 percentage points below a classification "
    "boundary, the Board of Examiners will consider raising the classification if more than half of the "
    "student's Level 6 credits were awarded marks in the higher class."
)
EARLY_TERM = (
    "An accommodation contract may be ended early only if a suitable replacement tenant, who is not "
    "already living in University accommodation, has been found."
)
TRAVEL_ELIG = (
    "To apply for the Doctoral Travel Fund, full-time students must have completed their first year of "
    "doctoral study. Part-time students become eligible after completing two years."
)
CLEAR_DESK = (
    "Printed documents containing Confidential information must not be left unattended on desks or "
    "printers. When no longer needed, they must be placed in the locked confidential waste bins."
)
SOFTWARE_REQ = (
    "Software that is not on the approved list may be installed on a University-managed computer only "
    "after a security review by IT Services, which normally takes five working days."
)
APPEAL = (
    "Academic appeals must be submitted within 10 working days of the publication of results. An appeal "
    "cannot be made against academic judgement, only on the grounds of procedural irregularity or "
    "circumstances that could not have been disclosed earlier."
)
ACC_DEPOSIT = (
    "A deposit of £300 is required to secure a room. It is returned within 28 days of the end of the "
    "contract, less the cost of any damage or missing items."
)

PARAPHRASE = [
    (EARLY_WD, "Leave within your first fortnight and you won't owe anything in fees.", E),
    (EARLY_WD, "Withdrawing during the first two weeks still leaves you liable for a quarter of the fee.", C),
    (INFOSEC, "If you ignore a request to do the compulsory infosec course for more than 30 days, the University can cut off your IT access.", E),
    (INFOSEC, "Missing the 30-day training deadline automatically locks your account.", N),
    (FEEDBACK, "Apart from dissertations, your coursework results will appear on the Portal within 20 working days of the hand-in date.", E),
    (FEEDBACK, "Dissertation marks are also guaranteed within 20 working days.", N),
    (FEEDBACK, "Coursework marks are released within 30 working days of the deadline.", C),
    (VISA_REFUND, "If your visa is turned down and you send the refusal letter, the whole of your tuition deposit is given back.", E),
    (DDA, "Dean's Doctoral Award holders need the Graduate School's agreement before taking on other paid University work, and may be asked to teach for as much as six hours a week.", E),
    (DDA, "Award holders must teach for at least six hours every week.", C),
    (DDA, "Award holders cannot do any paid work outside the University.", N),
    (DEVICE_LOSS, "You have 48 hours to report a lost phone that holds University email.", C),
    (SCRATCH_WARN, "Scratch space is automatically wiped every 30 days.", N),
    (LATE_ENROL, "Unless the Registry agrees to give you more time, failing to finish enrolling by the end of week two means your registration is cancelled.", E),
    (LATE_ENROL, "Students who miss the enrolment deadline can still enrol by paying a late fee.", N),
    (LATE_ENROL, "Only your Head of School can extend the enrolment deadline.", C),
    (PGR_REVIEW, "Every year a PhD student's progress is assessed by a pair of academics, one or both of whom sit outside the supervisory team.", E),
    (PGR_REVIEW, "Both reviewers must be independent of the supervisory team.", C),
    (TENDER, "A microscope costing £12,000 including VAT has to go through a Procurement tender.", E),
    (TENDER, "A £15,000 item can be bought directly on a purchasing card.", C),
    (TEACH_FOCUS, "If you're on a teaching-focused contract, pedagogical scholarship is expected of you and helps your promotion case, although research publications aren't.", E),
    (TEACH_FOCUS, "Teaching-focused staff must publish at least one research paper a year to be promoted.", C),
    (BORDERLINE, "If you are within two points of a boundary and most of your Level 6 credits are in the higher class, the Board will look at moving you up.", E),
    (BORDERLINE, "Being two points or less under a boundary means the Board automatically raises your classification.", N),
    (EARLY_TERM, "You can end your contract early as long as you find a replacement who isn't already in University housing.", N),
    (EARLY_TERM, "Finding someone who already lives in halls to take over your room won't let you leave your contract early.", E),
    (TRAVEL_ELIG, "Full-time PhD students can apply once they've finished year one, whereas part-timers must wait until they've completed year two.", E),
    (TRAVEL_ELIG, "Part-time students can apply after their first year.", C),
    (CLEAR_DESK, "Confidential printouts you no longer need go in the locked confidential waste bins, and they must never be left lying on a desk or printer.", E),
    (CLEAR_DESK, "Confidential printouts you no longer need should be put in the ordinary recycling.", C),
    (SOFTWARE_REQ, "IT Services has to review unapproved software for security before it can go on a managed machine; this usually takes a working week.", E),
    (SOFTWARE_REQ, "Unapproved software can be installed straight away and reviewed later.", C),
    (SOFTWARE_REQ, "The security review always finishes within five working days.", N),
    (APPEAL, "You cannot appeal just because you disagree with the marker's academic judgement.", E),
    (APPEAL, "You have 10 working days from the release of results to appeal, and disagreeing with the mark is a valid ground.", C),
    (APPEAL, "Appeals are heard by the Academic Conduct Panel.", N),
    (ACC_DEPOSIT, "The deposit is returned in full whatever the condition of the room.", C),
]

# ---------------------------------------------------------------------------
# distractor: (premise, hypothesis, label). Same topic, different fact; no contradictions.
# ---------------------------------------------------------------------------

D_FINES = (
    "Library fines. Items that another reader has requested accrue a fine of £1 per day once overdue. "
    "Fines can be paid online through the Library account page or at the self-service kiosks."
)
D_HPC_ACCESS = (
    "Getting an account on Kestrel. Staff and postgraduate researchers can request an account through "
    "the Research Computing self-service portal. Undergraduates need a supervisor to sponsor their "
    "request."
)
D_ETHICS_FORMS = (
    "Ethics application checklist\n"
    "1. Completed application form\n"
    "2. Participant information sheet\n"
    "3. Consent form\n"
    "4. Data management plan"
)
D_ACC_PARCELS = (
    "Parcels for residents of Harrowgate Hall are delivered to the reception desk, which is staffed from "
    "08:00 to 22:00. You will receive an email when a parcel arrives for you."
)
D_SCHOL_PAY = (
    "The Aldermoor Excellence Scholarship is applied as a discount to your tuition fee invoice at the "
    "start of each academic year. It cannot be taken as cash."
)
D_VPN_INSTALL = (
    "Installing Aldermoor Connect. Download the GlobalProtect client from the Software Centre, enter the "
    "portal address connect.aldermoor.ac.uk and sign in with your University username."
)
D_GRANT_COSTING = (
    "Costing your grant. Use the Worktribe costing tool to build your budget. Salary costs are calculated "
    "automatically from the current pay scales, including the annual pay award."
)
D_RESIT_FEES = (
    "Resit arrangements. Resit assessments follow the same format as the original assessment unless the "
    "module leader decides otherwise. Results are published on the Student Portal."
)
D_MFA_LOST = (
    "Lost your phone? If you can no longer use your MFA app, contact the IT Service Desk, who will verify "
    "your identity and reset your MFA registration."
)
D_PROBATION = (
    "Probation meetings. During probation, new staff meet their line manager at least once a term to "
    "review progress against agreed objectives. A record of each meeting is kept on the HR system."
)
D_BACKUP = (
    "Restoring files. Users can restore files from /home snapshots themselves by browsing the hidden "
    ".snapshot directory in their home folder."
)
D_STORAGE_COST = (
    "Research Data Store pricing. Every research group receives 10 TB free of charge. Additional capacity "
    "is charged at £60 per TB per year and can be costed into grant applications."
)
D_SABB_REPORT = (
    "At the end of a period of research leave, staff must submit a short report to their Head of School "
    "describing the outcomes of the leave."
)
D_PLAG_SOFTWARE = (
    "All written coursework is submitted through Turnitin, which compares your work with published "
    "sources, websites and previously submitted student work."
)
D_INTL_ARRIVAL = (
    "Arriving in Aldermoor. The International Office runs a free airport pick-up service from Manchester "
    "Airport on the two weekends before the start of the autumn term."
)
D_LICENCE = (
    "Software licences. Adobe Creative Cloud is available to staff at a cost of £120 per year, charged to "
    "the department's budget. Requests are placed through the IT Shop."
)

DISTRACTOR = [
    (D_FINES, "Lost books are charged at the replacement cost plus a £10 processing fee.", N),
    (D_FINES, "You can settle a fine at a self-service kiosk.", E),
    (D_HPC_ACCESS, "New Kestrel accounts come with 50 GB of home storage.", N),
    (D_HPC_ACCESS, "An undergraduate needs a supervisor to sponsor a Kestrel account request.", E),
    (D_ETHICS_FORMS, "Ethics applications are normally decided within 15 working days.", N),
    (D_ETHICS_FORMS, "Your application has to include a consent form and a data management plan.", E),
    (D_ETHICS_FORMS, "The participant information sheet must be no longer than two pages.", N),
    (D_ACC_PARCELS, "Parcels not collected within 14 days are returned to the sender.", N),
    (D_ACC_PARCELS, "Harrowgate Hall reception is staffed until 10 p.m.", E),
    (D_SCHOL_PAY, "The scholarship is renewed automatically if you pass every module.", N),
    (D_SCHOL_PAY, "Scholarship holders must attend an annual awards evening.", N),
    (D_VPN_INSTALL, "The VPN lets you access library e-resources from home.", N),
    (D_GRANT_COSTING, "Grant budgets must be approved by the Faculty Finance Manager before submission.", N),
    (D_GRANT_COSTING, "Worktribe works out salary costs for you, including the yearly pay award.", E),
    (D_RESIT_FEES, "Each resit costs £50.", N),
    (D_RESIT_FEES, "Resits are held at the Westbrook Campus.", N),
    (D_MFA_LOST, "The Service Desk can reset your MFA once it has confirmed who you are.", E),
    (D_MFA_LOST, "You can use backup codes to sign in if you lose your phone.", N),
    (D_PROBATION, "Probation can be extended by up to six months if objectives are not met.", N),
    (D_PROBATION, "New staff are assigned a mentor from outside their School.", N),
    (D_BACKUP, "Files deleted from /home can be restored for up to 30 days.", N),
    (D_BACKUP, "Snapshots of /home are taken every hour.", N),
    (D_STORAGE_COST, "Storage beyond 10 TB is billed at £60 per terabyte each year.", E),
    (D_STORAGE_COST, "Research Data Store capacity is backed up to tape every week.", N),
    (D_SABB_REPORT, "You can't apply for another period of research leave until five years after the last one.", N),
    (D_PLAG_SOFTWARE, "A Turnitin similarity score above 20% triggers a plagiarism investigation.", N),
    (D_PLAG_SOFTWARE, "Students can submit drafts to Turnitin to check their similarity score before the deadline.", N),
    (D_INTL_ARRIVAL, "Pick-ups from Manchester Airport must be booked at least a week in advance.", N),
    (D_INTL_ARRIVAL, "The airport pick-up service doesn't cost anything.", E),
    (D_LICENCE, "Students can download Adobe Creative Cloud for free.", N),
    (D_LICENCE, "A staff Creative Cloud licence costs the department the equivalent of £10 a month.", E),
]

# ---------------------------------------------------------------------------
# added_specifics: (premise, hypothesis, label). The claim adds a detail; no contradictions.
# ---------------------------------------------------------------------------

S_CAREERS = (
    "The Careers Service offers one-to-one appointments with a careers adviser to all current students "
    "and to graduates for up to three years after graduation."
)
S_COUNSEL = (
    "Student Wellbeing provides free, confidential counselling. You can self-refer using the online form "
    "on the Wellbeing pages."
)
S_HPC_TRAIN = (
    "Research Computing runs an introductory Linux and Slurm course for new Kestrel users. Completing it "
    "is a condition of receiving a Kestrel account."
)
S_ERASMUS = (
    "Students on a study abroad year pay a reduced tuition fee to Aldermoor and do not pay fees to the "
    "host university."
)
S_ACC_INSPECT = (
    "Room inspections. Accommodation staff may enter your room to carry out an inspection after giving "
    "at least 24 hours' written notice."
)
S_GRANT_DEADLINE = (
    "Internal deadline. Applications to external funders must be submitted to the Research Office for "
    "checking at least 10 working days before the funder's deadline."
)
S_KEYS = (
    "Lost room keys. Report a lost key to your hall reception. A replacement key costs £25; if the lock "
    "has to be changed, the charge is £80."
)
S_EXAMS_ID = (
    "In examinations you must bring your Aldermoor student ID card and place it on your desk. Students "
    "without their card will be asked to complete an identity form."
)
S_LAPTOP_LOAN = (
    "The Library lends laptops to students for up to 4 hours at a time from the self-service lockers on "
    "the ground floor of the Main Library."
)
S_OPEN_ACCESS = (
    "Open access. Authors must deposit the accepted manuscript of every journal article in the Aldermoor "
    "Research Repository within three months of acceptance."
)
S_MAT_LEAVE = (
    "Research staff on fixed-term contracts who take maternity leave may request a no-cost extension to "
    "their contract equal to the length of the leave, subject to funder approval."
)
S_CONF_INSUR = (
    "University travel insurance covers staff and students travelling on University business, including "
    "conference attendance and fieldwork."
)
S_MAIL_QUOTA = (
    "Mailboxes. Every student mailbox has a 50 GB quota. When a mailbox reaches 49 GB, the owner receives "
    "a warning email."
)
S_ASSESS_FEEDBACK = (
    "Exam feedback. Students may request generic feedback on their performance in an examination from "
    "the module leader after results have been published."
)
S_SHUTTLE = (
    "A free shuttle bus runs between Harrowgate Campus and Westbrook Campus every 20 minutes from 07:30 "
    "to 19:00 on weekdays during term."
)

ADDED_SPECIFICS = [
    (S_CAREERS, "You can book a one-to-one with a careers adviser up to three years after you graduate.", E),
    (S_CAREERS, "Graduates can have up to three free careers appointments a year.", N),
    (S_COUNSEL, "Students can have up to six free counselling sessions.", N),
    (S_COUNSEL, "You can refer yourself to counselling without your GP's involvement, and you'll be seen within five working days.", N),
    (S_HPC_TRAIN, "You'll only get a Kestrel account once you've completed the introductory Linux and Slurm course.", E),
    (S_HPC_TRAIN, "The introductory course is a half-day session held every month.", N),
    (S_ERASMUS, "On a study abroad year you pay a reduced fee to Aldermoor and nothing to the university you visit.", E),
    (S_ERASMUS, "The reduced fee is because the host university provides the teaching.", N),
    (S_ACC_INSPECT, "Staff can inspect your room after giving you at least a day's written notice.", E),
    (S_ACC_INSPECT, "Room inspections take place once a term, with at least 24 hours' written notice.", N),
    (S_ACC_INSPECT, "In an emergency, staff can enter your room without notice.", N),
    (S_GRANT_DEADLINE, "For a UKRI call closing on 16 April 2027, the Research Office needs your application by 2 April 2027.", E),
    (S_GRANT_DEADLINE, "The Research Office checks applications within five working days.", N),
    (S_KEYS, "If you lose your key and the lock needs changing, you'll be charged £80.", E),
    (S_KEYS, "A replacement key costs £25 and is issued within 24 hours.", N),
    (S_EXAMS_ID, "If you forget your student card for an exam, you'll have to fill in an identity form.", E),
    (S_EXAMS_ID, "If you forget your card, you'll need to fill in an identity form and show a passport.", N),
    (S_LAPTOP_LOAN, "Laptop loans of up to 4 hours are available to students and staff.", N),
    (S_LAPTOP_LOAN, "Laptops returned late lead to a £5 fine.", N),
    (S_OPEN_ACCESS, "Authors have to put the accepted manuscript in the repository within three months of acceptance, as required by UKRI.", N),
    (S_OPEN_ACCESS, "For an article accepted on 15 January 2027, the manuscript must be deposited by 15 April 2027.", E),
    (S_MAT_LEAVE, "Fixed-term researchers returning from maternity leave can ask for their contract to be extended by the length of the leave, if the funder agrees.", E),
    (S_MAT_LEAVE, "A no-cost extension of up to 12 months is available after maternity leave.", N),
    (S_MAT_LEAVE, "Fixed-term research staff may request a no-cost extension after shared parental leave.", N),
    (S_CONF_INSUR, "University travel insurance covers conference trips of up to 90 days.", N),
    (S_MAIL_QUOTA, "You'll be warned by email when your mailbox gets to within 1 GB of its 50 GB limit.", E),
    (S_MAIL_QUOTA, "Once a mailbox is full, incoming email is rejected.", N),
    (S_ASSESS_FEEDBACK, "After results are out, you can ask the module leader for generic feedback on how you did in an exam, within four weeks.", N),
    (S_ASSESS_FEEDBACK, "You can ask the module leader for general feedback on an exam once the results have been published.", E),
    (S_SHUTTLE, "The free shuttle between Harrowgate and Westbrook runs three times an hour on weekdays in term.", E),
    (S_SHUTTLE, "The shuttle runs every 20 minutes, including on Saturdays.", N),
]

# ---------------------------------------------------------------------------
# long_passage: passages of 280-350 words; (passage key, hypothesis, label).
# The sentence that decides each label sits in the middle of the passage.
# ---------------------------------------------------------------------------

LONG = {
    "halls": (
        "Residential Licence Agreement 2026/27 – Summary of Key Terms\n"
        "This summary is provided for convenience and does not replace the full licence agreement, which "
        "you accept when you book a room through the Accommodation Portal. Licences for undergraduate "
        "halls run for 40 weeks from Saturday 19 September 2026; licences for postgraduate studios run "
        "for 51 weeks. You must pay a deposit of £300 when you accept your offer. Rent is collected in "
        "three instalments, on 1 October, 11 January and 26 April, by direct debit from a UK bank account "
        "or by card through the Portal. If a payment fails, a reminder is sent after 7 days and a late "
        "payment charge of £25 is added after 14 days. You may cancel your licence without charge within "
        "14 days of accepting it. After that period, you may be released from the licence only if a "
        "replacement resident who is not already living in University accommodation takes over your "
        "room; an administration fee of £100 is then deducted from your deposit. Overnight guests are "
        "permitted for a maximum of three nights in any seven-day period, and you are responsible for "
        "their behaviour. Pets are not permitted, with the exception of assistance dogs agreed in advance "
        "with the Accommodation Office. Your room will be inspected at least once a term; residents "
        "receive 24 hours' written notice except in an emergency. Damage beyond normal wear and tear will "
        "be charged at cost. The Accommodation Office in Fenwick Court is open from 09:00 to 17:00, Monday "
        "to Friday, and a Residence Life team is on call outside these hours. Contents insurance for "
        "items up to £4,000 is included in your rent through Endsleigh. Heating, electricity, water and "
        "Wi-Fi are also included. At the end of your licence you must vacate your room by 10:00 on the "
        "final day and return your keys to reception; keys that are not returned are charged at £25 each."
    ),
    "kestrel": (
        "Kestrel User Guide, Chapter 3: Resources and Limits\n"
        "Kestrel is the University's central high performance computing (HPC) service, managed by "
        "Research Computing and available to all staff and postgraduate researchers free at the point of "
        "use. Undergraduate projects can be given access when a member of staff sponsors the account. "
        "Each user has a 50 GB home directory, which is backed up nightly and kept for 90 days after the "
        "account closes. Scratch space of 5 TB per user is available on the fast parallel filesystem; it "
        "is not backed up, and files that have not been accessed for 60 days are deleted automatically "
        "every Sunday. Jobs are scheduled by Slurm using a fair-share policy. On the standard partition a "
        "job may run for up to 72 hours, and each user may use no more than 512 cores at any one time. "
        "The gpu partition has 24 nodes, each with four A100 GPUs; a single job may request up to eight "
        "GPUs across two nodes and may run for up to 48 hours. Research groups that need more capacity "
        "can buy priority access in units of 1,000 GPU-hours, priced at £450 per unit, and these hours "
        "must be used within 12 months of purchase. Interactive sessions are available through Open "
        "OnDemand and are limited to 8 hours. Software is provided through environment modules, and users "
        "may install additional software in their home directory, but licensed commercial software "
        "requires proof of a valid licence before Research Computing will install it centrally. "
        "Scheduled maintenance takes place on the first Tuesday of each month between 08:00 and 12:00, "
        "during which no new jobs will start. Users who believe a job failed because of a system fault "
        "may request a refund of their fair-share usage through the helpdesk within 14 days. Questions "
        "should be sent to the Research Computing helpdesk, which is staffed from 09:00 to 17:00 on "
        "weekdays and aims to respond within one working day."
    ),
    "fees": (
        "Tuition Fee Policy 2026/27, Part B: Payment, Withdrawal and Refunds\n"
        "This part applies to all students whose fees are payable directly to the University of "
        "Aldermoor. Students studying at the Kuala Lumpur campus should refer to the Aldermoor Malaysia "
        "fee policy instead. Fees are invoiced at registration. Students who pay their own fees may "
        "choose to pay in full at registration or in three instalments of 40%, 30% and 30%, due at "
        "registration, on 15 January 2027 and on 15 April 2027 respectively. Students whose fees are paid "
        "by an employer or other sponsor must provide a purchase order or sponsor letter before "
        "registration; the sponsor is then invoiced in full. Where a sponsor fails to pay within 60 days "
        "of the invoice date, liability for the fee passes to the student. A student who withdraws or "
        "suspends their studies is liable for fees according to the date on which the withdrawal is "
        "recorded by the Student Records Office, not the date on which they stopped attending. Students "
        "who withdraw in the first 14 days of the autumn term pay no tuition fees. Students who withdraw "
        "after that but before the end of the autumn term are liable for 25% of the annual fee, those who "
        "withdraw during the spring term for 50%, and those who withdraw during the summer term for the "
        "full fee. Refunds of any overpayment are made to the original payer, normally within 20 working "
        "days of the request, and refunds to cards are made only to the card used for payment. The "
        "University does not refund fees paid by a sponsor to the student. Students with outstanding debt "
        "of more than £100 will not be permitted to graduate, although they may still receive their "
        "results. The Student Finance Office can agree a revised payment plan in cases of hardship, and "
        "students are encouraged to make contact as early as possible if they expect difficulty in "
        "paying."
    ),
    "ethics": (
        "Research Ethics Procedure, Sections 4 to 6\n"
        "All research involving human participants, human tissue or personal data must receive ethics "
        "approval before any data are collected. Retrospective approval will not be given under any "
        "circumstances. Applications are made through the online Ethics Review Manager system and are "
        "routed according to risk. Low-risk projects, as defined by the self-assessment checklist, are "
        "reviewed by two members of the School Ethics Panel and usually receive a decision within 10 "
        "working days. High-risk projects, including all research with children under 16, adults who "
        "lack capacity to consent, or participants recruited through the NHS, are reviewed by the full "
        "Faculty Research Ethics Committee, which meets monthly during term and once over the summer. "
        "High-risk applications must be submitted at least 20 working days before the meeting at which "
        "they are to be considered. Research involving NHS patients also requires approval from the "
        "Health Research Authority, and the Faculty Committee's review does not replace it. Student "
        "projects are submitted by the supervisor on the student's behalf, and the supervisor remains "
        "responsible for ensuring that the research is conducted as approved. Approval is valid for the "
        "duration stated in the application, up to a maximum of five years, and any substantial change "
        "to the methods, the participant group or the data handling must be approved as an amendment "
        "before it is implemented. Minor amendments, such as a change of interview date, may be approved "
        "by the Chair of the School Ethics Panel alone. Adverse events must be reported to the committee "
        "that approved the project within five working days. Projects that use only publicly available "
        "anonymised data are exempt from review but must be registered. Breaches of the procedure are "
        "investigated under the Research Misconduct Policy and may lead to data being destroyed."
    ),
    "library": (
        "Library Services: Borrowing Guide 2026/27\n"
        "Your Aldermoor ID card is your library card and must be presented at the self-service machines "
        "or the help desk every time you borrow. Undergraduates may borrow up to 15 items, taught "
        "postgraduates up to 20, research students up to 30, and staff up to 40. Standard loans are "
        "issued for three weeks and are renewed automatically up to five times unless another reader "
        "requests the item. When an item on loan to you is requested, your due date changes to seven "
        "days from the request, or stays the same if that is sooner. Overdue standard loans are not "
        "fined, but borrowing is blocked while any item is more than 14 days overdue. Requested items "
        "that are returned late are fined £1 per day, capped at £20 per item, and items more than 42 days "
        "overdue are declared lost and charged at replacement cost plus a £10 administration fee. Short "
        "loans from the Course Collection are issued for 24 hours and cannot be renewed. Alumni may join "
        "the Library as external borrowers for £40 a year and may borrow up to five items, but they "
        "cannot access electronic resources off-campus because of licence restrictions. The Main Library "
        "at Harrowgate is open from 08:00 to midnight every day during term, and for 24 hours a day in "
        "the summer exam period; the Kelsey Street Library closes at 22:00. Returns can be made at any "
        "Aldermoor library, including through the external drop boxes, which are emptied every morning. "
        "Inter-library loans are free for research students and staff; undergraduates and taught "
        "postgraduates may request up to five a year, each costing £3. Group study rooms can be booked "
        "for up to three hours a day through the room booking system, and bookings not claimed within 15 "
        "minutes are released."
    ),
    "travel": (
        "Staff Travel and Expenses Policy (extract)\n"
        "All University business travel must be booked through the University's travel management "
        "company, Clarity, unless an exception has been approved by the budget holder in advance. Staff "
        "must obtain approval for overseas travel from their Head of School, and travel to any country on "
        "the FCDO 'advise against all travel' list additionally requires approval from the Travel Risk "
        "Group. Rail travel within the UK is in standard class. Air travel is in economy class, except "
        "that staff at grade 9 and above may travel in business class on flights with a scheduled "
        "duration of more than eight hours. Private car mileage is reimbursed at 45p per mile for the "
        "first 10,000 business miles in a tax year and 25p per mile thereafter. Hotel accommodation is "
        "reimbursed up to £150 per night in London and £110 per night elsewhere in the UK; overseas rates "
        "are set by country in Appendix C. Subsistence may be claimed at actual cost up to £10 for a "
        "journey of more than five hours and up to £25 for a journey of more than ten hours, provided "
        "itemised receipts are supplied. Alcohol cannot be reimbursed. Claims must be submitted through "
        "the Expenses module of the HR system within three months of the expense being incurred; claims "
        "submitted later will be paid only with the approval of the Director of Finance. Staff may "
        "request a cash advance for overseas trips lasting more than seven days, which must be reconciled "
        "within one month of return. Gifts and hospitality worth more than £50 must be declared in the "
        "register. Research grant holders must also comply with any stricter conditions set by the "
        "funder, and where the funder's rules and this policy differ, the stricter rule applies."
    ),
    "assessment": (
        "Assessment Regulations for Taught Programmes, Part 9\n"
        "Deadlines for coursework are published in the module handbook at the start of the module and are "
        "set at 14:00 on a weekday. Students who are unable to meet a deadline because of circumstances "
        "outside their control may request an extension before the deadline has passed. The module leader "
        "may grant an extension of up to seven calendar days; extensions of eight to fourteen days "
        "require approval from the School Extenuating Circumstances Panel, and no extension longer than "
        "fourteen days will be granted. Students with a Student Support Plan that recommends extensions "
        "may self-certify one extension of up to seven days per module without evidence. Work submitted "
        "up to 24 hours late without an approved extension receives a deduction of ten percentage "
        "points; work submitted between 24 hours and five working days late is capped at the pass mark; "
        "and later work receives a mark of zero. These penalties do not apply to examinations. A student "
        "who fails a module may resit the failed assessment once, in the August resit period, and the "
        "module mark is then capped at the pass mark. A student who did not attend the first attempt "
        "because of accepted extenuating circumstances takes the resit as a first sit, with an uncapped "
        "mark. Students may not resit a module they have passed in order to improve their mark. Marks "
        "are provisional until they have been confirmed by the Board of Examiners, which meets in June "
        "and again in September. Students who wish to query a provisional mark should speak to the "
        "module leader, but formal appeals can be made only after the Board has confirmed the mark and "
        "must be submitted within ten working days of the publication of results."
    ),
    "accounts": (
        "IT Accounts: Lifecycle and Security Standard\n"
        "Every student and member of staff receives an Aldermoor IT account, which provides access to "
        "email, Microsoft 365, the virtual learning environment, Wi-Fi and, where authorised, specialist "
        "systems such as Kestrel. Accounts for new staff are created automatically when HR records the "
        "start date in the HR system, normally five working days before that date. Student accounts are "
        "created when the offer is accepted and activated at enrolment. Passwords must contain at least "
        "fourteen characters; they do not expire, but must be changed immediately if a compromise is "
        "suspected. Multi-factor authentication is mandatory for all staff and postgraduate researchers "
        "and for any account with administrative rights; for other students it is strongly recommended. "
        "Accounts are locked for fifteen minutes after ten consecutive failed sign-in attempts. Sharing "
        "your password with anyone, including IT staff, is a disciplinary offence. Student accounts "
        "remain active for 90 days after the course end date and are then deleted together with their "
        "mailbox and OneDrive contents. Staff accounts are disabled at the end of the last working day; "
        "their OneDrive contents are retained for 60 days so that the line manager can request a "
        "transfer, and the mailbox is kept for one year before deletion. Emeritus staff and honorary "
        "visitors may keep a sponsored account for up to three years at a time, renewable on the "
        "recommendation of their Head of School. Accounts that have not been used for 180 days are "
        "disabled automatically, whatever the holder's status, and can be re-enabled through the IT "
        "Service Desk. Service accounts used by systems rather than people must have a named owner and "
        "are reviewed every six months by the Information Security team. Suspected misuse of an account "
        "should be reported to the IT Service Desk, which is available 24 hours a day, seven days a "
        "week, by phone."
    ),
}

LONG_PAIRS = [
    ("halls", "More than 14 days after accepting your licence, you can only be released from it if a replacement resident takes over, and £100 then comes off your deposit.", E),
    ("halls", "You can have an overnight guest for up to five nights a week.", C),
    ("halls", "Assistance dogs are allowed in halls if agreed with the Accommodation Office beforehand.", E),
    ("halls", "A missed rent payment incurs a £25 charge after seven days.", C),
    ("halls", "The Endsleigh contents insurance also covers your bicycle when it is away from halls.", N),
    ("kestrel", "A job on the gpu partition may use eight GPUs spread over two nodes for up to two days.", E),
    ("kestrel", "Priority GPU hours cost 45p each and must be used within a year.", E),
    ("kestrel", "Open OnDemand interactive sessions can last up to 12 hours.", C),
    ("kestrel", "Files in scratch that haven't been accessed for 60 days are backed up to tape before deletion.", C),
    ("kestrel", "Research Computing will install licensed commercial software centrally once you show a valid licence, within five working days.", N),
    ("fees", "Under the instalment plan, a self-funding student with a £9,535 fee pays £2,860.50 in January.", E),
    ("fees", "If your employer hasn't paid within 60 days of being invoiced, the fee becomes your responsibility.", E),
    ("fees", "Your fee liability on withdrawal depends on the last day you attended classes.", C),
    ("fees", "The first instalment is 50% of the fee.", C),
    ("fees", "Students whose sponsor does not pay are charged interest on the overdue fee.", N),
    ("ethics", "A study with 14-year-old participants goes to the full Faculty Research Ethics Committee.", E),
    ("ethics", "For an NHS study, Faculty Committee approval means HRA approval is not needed.", C),
    ("ethics", "A low-risk project is reviewed by three members of the School Ethics Panel.", C),
    ("ethics", "Ethics approval can last for up to five years, and a change to the participant group needs an approved amendment first.", E),
    ("ethics", "Low-risk decisions are always made within 10 working days.", N),
    ("library", "When a reader requests a book you have, you'll have at most a week left to return it.", E),
    ("library", "Borrowing is blocked as soon as a standard loan is a day overdue.", C),
    ("library", "An item that is 50 days overdue is treated as lost and charged at replacement cost plus £10.", E),
    ("library", "Alumni who join as external borrowers can use e-journals from home.", C),
    ("library", "Group study rooms can be booked up to a week in advance.", N),
    ("library", "Course Collection short loans can be renewed online.", C),
    ("travel", "For 12,000 business miles in one tax year you would be reimbursed £5,000.", E),
    ("travel", "A hotel in Manchester is reimbursed up to £150 a night.", C),
    ("travel", "On a six-hour journey you can claim up to £10 for food, with itemised receipts.", E),
    ("travel", "On a twelve-hour journey you can claim up to £50 in subsistence.", C),
    ("travel", "Taxi fares are reimbursed only if you provide a receipt.", N),
    ("assessment", "Students with a Student Support Plan can self-certify an extension of up to a week once per module without evidence.", E),
    ("assessment", "Work submitted 30 hours late loses ten percentage points.", C),
    ("assessment", "If accepted extenuating circumstances kept you from the first attempt, your resit mark is not capped.", E),
    ("assessment", "You may resit a module you have passed if you want a higher mark.", C),
    ("assessment", "Extension requests have to be submitted through the Student Portal.", N),
    ("accounts", "Your password must be changed every 90 days.", C),
    ("accounts", "A leaver's OneDrive files are kept for 60 days, and the leaver can ask for them to be transferred to a personal account.", N),
    ("accounts", "An account with administrative rights must use MFA, even if it belongs to an undergraduate.", E),
    ("accounts", "Staff mailboxes are deleted one year after the account is disabled.", E),
    ("accounts", "Emeritus staff can keep a sponsored account for up to five years without renewal.", C),
    ("accounts", "An account nobody has signed into for 180 days is switched off automatically, but the Service Desk can re-enable it.", E),
]

# ---------------------------------------------------------------------------
# perturbation groups. "sents" are sentences (joined by a space) or, with sep="\n\n", passages.
# Each flip is (field, old, new, label); old must occur exactly once in that field.
# The order variant reverses the sentences unless "order" gives another permutation.
# ---------------------------------------------------------------------------

PERT = [
    dict(
        sents=[
            "Postgraduate students may borrow up to 25 items at a time.",
            "Standard loans for postgraduates last six weeks.",
            "Loans are renewed automatically unless another reader requests the item.",
        ],
        hyp="As a postgraduate, you can keep a standard loan for 42 days.",
        flips=[
            ("premise", "six weeks", "four weeks", C),
            ("premise", "Standard loans for postgraduates", "Standard loans for undergraduates", N),
        ],
    ),
    dict(
        sents=[
            "Coursework submitted up to 24 hours late receives a deduction of 10 percentage points.",
            "Work submitted more than five working days late receives a mark of zero.",
            "Late penalties do not apply where an extension has been approved.",
        ],
        hyp="An essay that would have earned 62% but is handed in a few hours late without an extension will get 52%.",
        flips=[
            ("premise", "10 percentage points", "5 percentage points", C),
            ("hypothesis", "a few hours late", "three working days late", N),
        ],
    ),
    dict(
        sents=[
            "Aldermoor Connect requires multi-factor authentication at every sign-in.",
            "VPN sessions are disconnected after 30 minutes of inactivity.",
            "Each user may have up to three concurrent VPN sessions.",
        ],
        hyp="You can stay connected to the VPN on three devices at the same time.",
        flips=[
            ("premise", "up to three concurrent VPN sessions", "only one VPN session at a time", C),
            ("hypothesis", "three devices", "four devices", C),
        ],
    ),
    dict(
        sents=[
            "Low-risk projects are approved by the School Ethics Panel.",
            "High-risk projects are approved by the Faculty Research Ethics Committee.",
            "Research with children under 16 is always classed as high-risk.",
        ],
        hyp="A study involving 12-year-olds is approved by the Faculty Research Ethics Committee rather than the School Ethics Panel.",
        flips=[
            ("premise", "always classed as high-risk", "always classed as low-risk", C),
            ("premise", "children under 16", "children under 10", N),
        ],
    ),
    dict(
        sents=[
            "The 2026/27 tuition fee for home undergraduates is £9,535.",
            "Self-funding students may pay their fee in three equal instalments.",
            "An administration charge of £50 is added to every instalment plan.",
        ],
        hyp="A self-funding home undergraduate who pays by instalments will pay £9,585 in total for 2026/27.",
        flips=[
            ("premise", "£50", "£75", C),
            ("hypothesis", "self-funding home undergraduate", "home undergraduate sponsored by an employer", N),
        ],
    ),
    dict(
        sents=[
            "The gpu partition on Kestrel has a maximum wall time of 48 hours.",
            "Each GPU job may request up to four GPUs.",
            "The standard partition allows jobs of up to 72 hours.",
        ],
        hyp="A GPU job on Kestrel can run for two days at most.",
        flips=[
            ("premise", "48 hours", "96 hours", C),
            ("hypothesis", "two days", "three days", C),
        ],
    ),
    dict(
        sents=[
            "Clause 4. A deposit of £300 is payable when you accept a room offer.",
            "Clause 9. The deposit is refunded within 28 days of the end of the contract, less any charges for damage.",
        ],
        sep="\n\n",
        hyp="You'll get your £300 deposit back, minus any damage charges, within four weeks of your contract ending.",
        flips=[
            ("premise", "28 days", "42 days", C),
            ("premise", "£300", "£250", C),
        ],
    ),
    dict(
        sents=[
            "Staff accounts are disabled at 23:59 on the last day of employment.",
            "Email forwarding may be requested for up to 30 days.",
            "OneDrive files are retained for 60 days after the account is disabled.",
        ],
        hyp="If your last day is 30 June 2027, your OneDrive files will be kept until at least 29 August 2027.",
        flips=[
            ("premise", "retained for 60 days", "retained for 30 days", C),
            ("premise", "OneDrive files are retained", "Mailbox contents are retained", N),
        ],
    ),
    dict(
        sents=[
            "Deferral requests must reach the Academic Registry within five working days of the assessment.",
            "Every deferral request must be supported by evidence.",
            "Decisions on deferral requests are confirmed by email.",
        ],
        hyp="For an exam on Monday 11 January 2027, the Academic Registry must receive your deferral request by Monday 18 January 2027.",
        flips=[
            ("premise", "five working days", "three working days", C),
            ("premise", "the Academic Registry", "the Student Records Office", N),
        ],
    ),
    dict(
        sents=[
            "MFA is mandatory for all staff.",
            "Postgraduate research students must also use MFA.",
            "For undergraduates, MFA is recommended but optional.",
        ],
        hyp="As a PhD student, you can't opt out of MFA.",
        flips=[
            ("premise", "must also use MFA", "may choose whether to use MFA", C),
            ("premise", "Postgraduate research students", "Postgraduate taught students", N),
        ],
    ),
    dict(
        sents=[
            "The Excellence Scholarship is open only to students with home fee status.",
            "Applicants must have a household income of £35,000 or less.",
            "The Excellence Scholarship is worth £3,000 a year.",
        ],
        hyp="A home student from a household earning £32,000 a year meets the scholarship's income requirement.",
        flips=[
            ("premise", "£35,000", "£30,000", C),
            ("premise", "a household income", "a personal income", N),
        ],
    ),
    dict(
        sents=[
            "Business mileage in a private car is reimbursed at 45p per mile.",
            "Mileage claims must be submitted within three months of the journey.",
            "Parking charges are reimbursed on production of a receipt.",
        ],
        hyp="A 120-mile round trip in your own car would be reimbursed at £54.",
        flips=[
            ("premise", "45p per mile", "40p per mile", C),
            ("hypothesis", "120-mile", "150-mile", C),
        ],
    ),
    dict(
        sents=[
            "Resit period 2026/27: Monday 16 August to Friday 27 August 2027.",
            "Resit registration: all students taking a resit must register through the Student Portal by 23 July 2027.",
        ],
        sep="\n\n",
        hyp="You have to register for your resit more than three weeks before the resit period begins.",
        flips=[
            ("premise", "Monday 16 August", "Monday 9 August", C),
            ("premise", "by 23 July 2027", "by 6 August 2027", C),
        ],
    ),
    dict(
        sents=[
            "Highly Restricted data may be stored only in the Secure Research Environment.",
            "Special category personal data, such as health data, is classified as Highly Restricted.",
            "Confidential data may be stored in OneDrive.",
        ],
        hyp="You must not keep participants' health data in OneDrive.",
        flips=[
            ("premise", "only in the Secure Research Environment", "in the Secure Research Environment or in OneDrive", C),
            ("premise", "may be stored only in", "should preferably be stored in", N),
        ],
    ),
    dict(
        sents=[
            "A full-time lecturer is allocated 1,650 working hours a year.",
            "Teaching accounts for 40% of a full-time lecturer's allocation.",
            "New lecturers receive a 50% reduction in their teaching allocation in their first year.",
        ],
        hyp="A new full-time lecturer has 330 hours of teaching allocated in their first year.",
        flips=[
            ("premise", "a 50% reduction", "a 25% reduction", C),
            ("hypothesis", "330 hours", "495 hours", C),
        ],
    ),
    dict(
        sents=[
            "Student accounts remain active for 90 days after the course end date.",
            "Mailbox and OneDrive contents are deleted when a student account closes.",
            "Graduates can set up an alumni email address through the Alumni Office.",
        ],
        hyp="If your course ends on 30 June 2027, you can still get into your OneDrive on 15 September 2027.",
        flips=[
            ("premise", "90 days", "60 days", C),
            ("premise", "deleted when a student account closes", "deleted on the course end date", C),
        ],
    ),
]


# ---------------------------------------------------------------------------
# builder
# ---------------------------------------------------------------------------


def _row(rid, premise, hyp, label, slc, **extra):
    row = {"id": rid, "premise": premise, "hypothesis": hyp, "label": label, "slice": slc}
    row.update(extra)
    return row


def build():
    rows = []
    simple = [
        ("numeric", NUMERIC),
        ("dates", DATES),
        ("negation", NEGATION),
        ("entity", ENTITY),
    ]
    for slc, items in simple:
        for i, (p, h, lab) in enumerate(items, 1):
            rows.append(_row(f"{SLICES[slc]}-{i:03d}", p, h, lab, slc))
    for i, (p1, p2, h, lab) in enumerate(MULTI, 1):
        rows.append(_row(f"multi-{i:03d}", p1 + "\n\n" + p2, h, lab, "multi_passage"))
    for slc, items in (("paraphrase", PARAPHRASE), ("distractor", DISTRACTOR), ("added_specifics", ADDED_SPECIFICS)):
        for i, (p, h, lab) in enumerate(items, 1):
            rows.append(_row(f"{SLICES[slc]}-{i:03d}", p, h, lab, slc))
    for i, (key, h, lab) in enumerate(LONG_PAIRS, 1):
        rows.append(_row(f"long-{i:03d}", LONG[key], h, lab, "long_passage"))
    for g, grp in enumerate(PERT, 1):
        gid = f"pert-{g:03d}"
        sep = grp.get("sep", " ")
        sents = grp["sents"]
        premise = sep.join(sents)
        hyp = grp["hyp"]
        rows.append(_row(gid, premise, hyp, E, "perturbation", group=gid))
        for k, (field, old, new, lab) in enumerate(grp["flips"], 1):
            p, h = premise, hyp
            if field == "premise":
                p = _devset.replace_once(p, old, new, f"{gid}-f{k}")
            elif field == "hypothesis":
                h = _devset.replace_once(h, old, new, f"{gid}-f{k}")
            else:
                raise ValueError(field)
            rows.append(_row(f"{gid}-f{k}", p, h, lab, "perturbation", group=gid, perturbation="flip"))
        order = grp.get("order") or list(reversed(range(len(sents))))
        reordered = sep.join(sents[j] for j in order)
        if reordered == premise:
            raise ValueError(f"{gid}: order variant equals base")
        rows.append(_row(f"{gid}-o", reordered, hyp, E, "perturbation", group=gid, perturbation="order"))
    return rows


def own_errors(rows):
    """This set's own rules: no premise and hypothesis twice, two non-empty passages in a multi-passage premise,
    280-350 words in a long passage, an order variant made of the same passages, a flip that changes exactly one of
    premise and hypothesis."""
    out = []
    pairs = set()
    bases = {r["id"]: r for r in rows if r.get("slice") == "perturbation" and "perturbation" not in r}
    for r in rows:
        rid = r.get("id", "?")
        key = (r.get("premise"), r.get("hypothesis"))
        if key in pairs:
            out.append(f"{rid}: duplicate premise/hypothesis pair")
        pairs.add(key)
        if r.get("slice") == "multi_passage" and not all(p.strip() for p in r["premise"].split("\n\n")):
            out.append(f"{rid}: multi_passage premise must be two passages")
        if r.get("slice") == "long_passage" and not 280 <= len(r["premise"].split()) <= 350:
            out.append(f"{rid}: long passage has {len(r['premise'].split())} words")
        b = bases.get(r.get("group"))
        if b is None or "perturbation" not in r:
            continue
        if r["perturbation"] == "order" and "\n\n" in b["premise"] \
                and sorted(r["premise"].split("\n\n")) != sorted(b["premise"].split("\n\n")):
            out.append(f"{rid}: order variant has different passages")
        if r["perturbation"] == "flip" and (r["premise"] != b["premise"]) == (r["hypothesis"] != b["hypothesis"]):
            out.append(f"{rid}: flip must change exactly one of premise and hypothesis")
    return out


if __name__ == "__main__":
    sys.exit(_devset.main(sys.argv[1:], OUT, build, dict(SLICES), own_errors))
