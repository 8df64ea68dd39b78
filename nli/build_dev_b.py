"""Build nli/dev_b.jsonl: a second hand-labelled NLI development set for the citation-support judge.

Domain: the fictional Harrowgate County Council and Harrowgate Hospitals NHS Trust (council tax, parking, waste,
planning, libraries, schools, social care, procurement, information governance, staff handbook, clinical
procedures). Written by hand without reading any judge or any other set; labels follow the conventions in
nli/README.md ("How the labels were decided").

    python nli/build_dev_b.py            # rewrite dev_b.jsonl
    python nli/build_dev_b.py --check    # validate the written file
    python nli/build_dev_b.py --stats    # counts per slice and label

Ids are positional within a slice: append new items at the end of a slice's list to keep ids stable.
No randomness, no network; two runs give byte-identical output.
"""

import sys
from pathlib import Path

import _devset  # the builders' shared writing, checks and command line (nli/_devset.py)

E, N, C = "entailment", "neutral", "contradiction"
OUT = Path(__file__).with_name("dev_b.jsonl")

# slice -> (id prefix, [(premise, [(hypothesis, label), ...]), ...])
SLICES = {}

SLICES["numeric"] = ("num", [
    ("Residents' parking permits\nA first permit for a household costs £65 a year. A second permit costs £110 a "
     "year. No household may hold more than three permits at once, and Blue Badge holders receive their first "
     "permit free of charge.", [
        ("If your household already has one permit, an additional one will set you back £110 annually.", E),
        ("A household with two permits pays £175 a year in total.", E),
        ("Each household can have up to four resident permits.", C),
        ("A third permit costs £150 a year.", N),
    ]),
    ("3.1 Mileage is reimbursed at 45p per mile for the first 10,000 business miles in a tax year and 25p per mile "
     "thereafter.\n3.2 Claims must be submitted within three months of the journey, with the start and end "
     "postcodes of each trip.", [
        ("A 100-mile business trip within your first 10,000 miles of the tax year would be reimbursed at £45.", E),
        ("Once you've driven more than 10,000 business miles in the tax year, the rate falls to 20p a mile.", C),
        ("You can claim an extra 5p a mile for carrying a colleague as a passenger.", N),
        ("Mileage claims can be made up to six months after the journey.", C),
    ]),
    ("Council tax charges 2026/27 (annual, by valuation band)\nBand A: £1,284 | Band B: £1,498 | Band C: £1,712 | "
     "Band D: £1,926 | Band E: £2,354\nA single person discount of 25% applies where only one adult lives in the "
     "property. Charges include the police and fire precepts.", [
        ("Someone living alone in a Band C home would pay £1,284 for the year.", E),
        ("The Band B charge is £214 higher than the Band A charge.", E),
        ("A Band E property will be billed £2,534 for 2026/27.", C),
        ("Full-time students are exempt from council tax.", N),
        ("The single person discount takes a third off the bill.", C),
    ]),
    ("Annual leave (full-time staff): 27 days plus bank holidays on appointment; 29 days after five years' "
     "continuous service; 33 days after ten years' continuous service.", [
        ("After a decade of continuous service, full-time employees get thirty-three days' holiday on top of bank "
         "holidays.", E),
        ("A full-time employee with seven years' continuous service is entitled to 29 days plus bank holidays.", E),
        ("New full-time starters receive 29 days' annual leave.", C),
        ("Part-time staff get the same number of days as full-time staff.", N),
    ]),
    ("Overdue charges\nAdult books: 25p per day, capped at £6.00 per item. Children's books: no charge. Talking "
     "books for registered blind or partially sighted members: no charge.", [
        ("Returning an adult book eight days late would cost you £2.", E),
        ("The most you can be charged for one overdue adult book is six pounds.", E),
        ("Overdue charges on an adult book are capped at £8.", C),
        ("DVDs are charged at £1 a day when they're overdue.", N),
    ]),
    ("IPC quick reference: hand hygiene and environment\n- Wash hands for at least 20 seconds.\n- Alcohol hand rub "
     "must contain at least 60% alcohol.\n- Disposable bay curtains are changed every 12 weeks, or sooner if "
     "visibly soiled.\n- Sharps bins must be closed when three-quarters full.", [
        ("Disposable curtains in bays are replaced at least every 84 days.", E),
        ("Handwashing should take no less than twenty seconds.", E),
        ("Hand rub has to be a minimum of 70% alcohol.", C),
        ("Bay curtains are changed twice a year unless they're soiled.", C),
        ("You should close a sharps bin once it is 75% full.", E),
    ]),
    ("Community Chest grants 2026\nAwards range from £500 to £5,000. Groups must contribute at least 10% of the "
     "total project cost from their own funds or from other sources. The fund is open to constituted voluntary "
     "and community groups based in the county.", [
        ("For a £20,000 project, your group would need to put in at least £2,000.", E),
        ("The largest award the Community Chest makes is £10,000.", C),
        ("You can apply for as little as £250.", C),
        ("Around half of all applications are successful.", N),
    ]),
    ("Bulky waste collections: up to three items for £35. Each additional item costs £10, up to a maximum of six "
     "items per collection. Residents receiving council tax support pay half price.", [
        ("Having five items collected would cost £55.", E),
        ("You can book up to eight items on a single collection.", C),
        ("If you get council tax support, a three-item collection costs £17.50.", E),
        ("Fridges and freezers carry a £20 surcharge.", N),
    ]),
    ("Section 12 (cost limit). The council may refuse a request where compliance would exceed the appropriate "
     "limit of £450. This is calculated at £25 per hour, which equates to 18 hours of staff time spent locating, "
     "retrieving and extracting the information.", [
        ("The FOI cost limit works out at eighteen hours of work at £25 an hour.", E),
        ("The appropriate limit for the council is £600.", C),
        ("Requests estimated at under £450 are always answered within 20 working days.", N),
    ]),
    ("Ward rota guidance: a standard day shift is 7.5 hours paid plus a 30-minute unpaid break. Night shifts "
     "attract an enhancement of 30% on the basic hourly rate. Staff must not work more than 13 hours in any single "
     "shift, including breaks.", [
        ("Including the unpaid half-hour break, a standard day shift lasts eight hours.", E),
        ("If your basic rate is £20 an hour, you'd earn £26 an hour on nights.", E),
        ("Nights are paid at time and a half.", C),
        ("Weekend shifts carry a 20% enhancement.", N),
        ("A single shift can last up to 14 hours including breaks.", C),
    ]),
])

SLICES["dates"] = ("date", [
    ("Starting primary school in September 2027\nThe online application window opens on Sunday 1 November 2026 "
     "and closes at midnight on Friday 15 January 2027. National Offer Day is Friday 16 April 2027. Applications "
     "received after the closing date are considered after all on-time applications.", [
        ("You need to get your primary school application in by Friday 15 January 2027.", E),
        ("Primary school offers will be sent out on Thursday 16 April 2027.", C),
        ("Applications can be submitted from the start of November 2026.", E),
        ("Late applications will be processed from 1 March 2027.", N),
        ("Primary places are offered in the second quarter of 2027.", E),
    ]),
    ("Paying by instalments: council tax bills for 2026/27 are issued in March 2026. The first instalment is due "
     "on 1 April 2026 and the remaining nine instalments fall due on the 1st of each month up to and including "
     "1 January 2027.", [
        ("The 2026/27 council tax is spread over ten monthly instalments.", E),
        ("The final instalment for 2026/27 is due on 1 February 2027.", C),
        ("Bills for 2026/27 go out in the first quarter of 2026.", E),
        ("Direct debit payers can choose to pay on the 15th of the month instead.", N),
    ]),
    ("Garden waste subscription 2026\nThe 2026 service runs from Monday 2 March 2026 to Friday 27 November 2026. "
     "Bins are emptied fortnightly on your usual collection day. Subscriptions bought after 31 May cost a reduced "
     "£30.", [
        ("The 2026 garden waste season finishes on Friday 27 November.", E),
        ("If you subscribe in June 2026, you'll pay the reduced price of £30.", E),
        ("Garden waste is collected throughout December 2026.", C),
        ("Garden bins are emptied every week during the season.", C),
        ("Subscriptions bought before 1 March get a £5 early-bird discount.", N),
    ]),
    ("Response times\n- Subject access requests (SARs): one calendar month from receipt, extendable by up to two "
     "further months for complex requests.\n- FOI requests: 20 working days from receipt.\n- EIR requests: 20 "
     "working days, extendable to 40 working days for complex or voluminous requests.", [
        ("A complex SAR can take up to three months in total.", E),
        ("FOI requests have to be answered within 30 working days.", C),
        ("A SAR received on 10 March 2026 should normally be answered by 10 April 2026.", E),
        ("The extension for a complex SAR has to be approved by the DPO.", N),
        ("A complex EIR request can be extended to eight working weeks.", E),
    ]),
    ("Householder planning applications are decided within eight weeks of the date the application is validated. "
     "Neighbours are notified by letter and have 21 days to comment. Decisions are published on the planning "
     "portal on the next working day after they are issued.", [
        ("Neighbours get three weeks to send in their comments.", E),
        ("If your application is validated on Monday 6 July 2026, you should have a decision by Monday 31 August "
         "2026.", E),
        ("If your application is validated on Monday 6 July 2026, the decision is due by Monday 7 September "
         "2026.", C),
        ("A decision issued on a Friday appears on the portal the following Monday.", E),
        ("Neighbours have 14 days to comment on a householder application.", C),
    ]),
    ("Visiting times (from 1 February 2026)\nAdult wards: 11:00-20:00 daily\nMaternity: birth partners at any "
     "time; other visitors 14:00-19:00\nCritical care: by arrangement with the nurse in charge\n(See section 5 for "
     "children visiting.)", [
        ("You're welcome to visit an adult ward at half past seven in the evening.", E),
        ("Maternity visitors who aren't birth partners can come from 2pm.", E),
        ("Adult wards stay open to visitors until 9pm.", C),
        ("Children under 12 aren't allowed to visit critical care.", N),
        ("Visiting on adult wards starts at 10am.", C),
    ]),
    ("Budget monitoring timetable 2026/27\nThe council's financial year runs from 1 April to 31 March. Directorate "
     "returns for Quarter 3 (October to December 2026) must reach Finance by Friday 8 January 2027; the Quarter 3 "
     "report goes to Cabinet on Tuesday 9 February 2027.", [
        ("Quarter 3 covers the last three months of calendar year 2026.", E),
        ("Quarter 3 returns are due on Thursday 8 January 2027.", C),
        ("Cabinet considers the Quarter 3 report 32 days after directorate returns are due.", E),
        ("Quarter 4 returns are due by 9 April 2027.", N),
    ]),
    ("Booking annual leave\nYou must give notice of at least twice the length of the leave requested (for example, "
     "ten working days' notice for five days' leave). Requests for leave between 20 December and 2 January must "
     "be submitted by 31 October.", [
        ("To take two days off, you need to give at least four days' notice.", E),
        ("A request to take 28 December off has to be in by 31 October.", E),
        ("Requests for leave on 31 December must be submitted by 30 November.", C),
        ("Leave in August must be requested by 1 June.", N),
        ("A five-day holiday needs only five days' notice.", C),
    ]),
    ("Harrowgate County Council elections\nPolling day: Thursday 6 May 2027 (polls open 7am-10pm)\nDeadline to "
     "register to vote: midnight, Monday 19 April 2027\nDeadline for new postal vote applications: 5pm, Tuesday "
     "20 April 2027", [
        ("To vote in the May 2027 county elections, you must be registered by 19 April 2027.", E),
        ("New postal vote applications close the day after the registration deadline.", E),
        ("The county elections take place on Thursday 13 May 2027.", C),
        ("Proxy vote applications close on 27 April 2027.", N),
        ("Polling stations close at 9pm.", C),
    ]),
])

SLICES["negation"] = ("neg", [
    ("Controlled drugs (CDs)\n4.1 Every CD administration must be checked by two members of registered staff, one "
     "of whom must be a registered nurse or midwife.\n4.2 A student nurse may act as the second checker only under "
     "the direct supervision of a registered nurse.\n4.3 Do not interrupt a nurse wearing a red 'do not disturb' "
     "tabard during a medication round.", [
        ("A controlled drug can't be given after a check by just one member of staff.", E),
        ("Student nurses are never allowed to act as the second checker.", C),
        ("Whenever a registered nurse is directly supervising, a student nurse can be the second checker.", N),
        ("You should avoid interrupting a nurse in a red tabard during the medicines round.", E),
    ]),
    ("Uniform policy (extract). Staff are not required to wear uniform on training days. Uniform must not be worn "
     "outside hospital premises, including when travelling to and from work, unless it is fully covered by a "
     "coat.", [
        ("Staff can't travel to work in uncovered uniform.", E),
        ("Wearing uniform on training days is mandatory.", C),
        ("Nipping into the supermarket on your way home in uniform with no coat over it breaks the policy.", E),
        ("Staff who break the uniform rules will face disciplinary action.", N),
    ]),
    ("Blue Badge holders may park on single or double yellow lines for up to three hours, provided there is no ban "
     "on loading or unloading. Parking in disabled bays in council car parks is free for Blue Badge holders, with "
     "no time limit.", [
        ("With a Blue Badge, you won't pay to use disabled bays in council car parks.", E),
        ("Blue Badge holders can park on yellow lines even where there's a loading ban.", C),
        ("Blue Badge holders must not stay in disabled bays in council car parks for more than three hours.", C),
        ("Blue Badge holders must display a parking clock when parked on yellow lines.", N),
    ]),
    ("Hybrid working is optional for eligible office-based staff, and no employee will be required to work from "
     "home. Frontline care staff are not eligible for hybrid working.", [
        ("Eligible staff have to work from home at least two days a week.", C),
        ("If you work in frontline care, you can't work on a hybrid basis.", E),
        ("Working from home isn't compulsory for anyone.", E),
        ("Managers can turn down a hybrid working request from eligible office staff.", N),
    ]),
    ("Food safety rules (ward kitchens)\n- Raw meat must never be stored above ready-to-eat food.\n- Food may be "
     "reheated only once.\n- Hot food must be held at 63°C or above.", [
        ("Reheating food a second time is not permitted.", E),
        ("Ready-to-eat food must never go on a shelf below raw meat.", E),
        ("Raw meat can go above ready-to-eat food as long as it's covered.", C),
        ("Hot food may be held below 63°C for up to two hours.", C),
    ]),
    ("All staff and volunteers working with children must have an enhanced DBS check. Existing staff who move to a "
     "new role within the same school do not need a new check, unless the new role involves overnight supervision "
     "of pupils.", [
        ("Volunteers who work with children have to undergo an enhanced DBS check.", E),
        ("A teacher changing roles within the same school never needs a new DBS check.", C),
        ("If your new role at the same school includes supervising pupils overnight, you'll need a fresh DBS "
         "check.", E),
        ("Volunteers have to pay for their own DBS checks.", N),
    ]),
    ("What goes in your blue bin\n- Paper, card, cans and plastic bottles: yes\n- Plastic bags and film: no\n- "
     "Glass: only in the separate glass caddy, never loose in the bin\nBlack bins are collected fortnightly; blue "
     "bins every four weeks.", [
        ("Loose glass bottles can go straight into the blue bin.", C),
        ("Plastic bags shouldn't go in the blue bin.", E),
        ("Blue bins are collected every fortnight.", C),
        ("Glass in the caddy is collected on the same day as the blue bin.", N),
    ]),
    ("CIL exemptions. The following are exempt from the Community Infrastructure Levy: self-build homes; "
     "residential annexes; residential extensions of less than 100 square metres. Charities are exempt only where "
     "the development will be used wholly or mainly for charitable purposes.", [
        ("You won't have to pay CIL on a 60 m² extension to your house.", E),
        ("A 150 m² residential extension is exempt from CIL.", N),
        ("Charities never have to pay CIL.", C),
        ("Residential annexes are liable for the levy.", C),
    ]),
    ("Bare below the elbows (clinical areas)\nWrist watches, stoned rings and long sleeves must not be worn. A "
     "single plain band ring is permitted. A religious bangle may be worn if it can be pushed up the forearm and "
     "secured during hand hygiene.", [
        ("A plain wedding band is allowed in clinical areas.", E),
        ("You can keep your watch on in clinical areas if it's waterproof.", C),
        ("Religious bangles are prohibited in clinical areas.", C),
        ("Nail varnish is not allowed in clinical areas.", N),
        ("Long sleeves aren't acceptable in clinical areas.", E),
    ]),
    ("Staff parking at Harrowgate General. Staff may not park in the patient car parks (A, B and C) at any time. "
     "Car Park D is reserved for permit holders, except that night staff may park there without a permit between "
     "7pm and 8am.", [
        ("Staff working nights don't need a permit to use Car Park D between 7pm and 8am.", E),
        ("Staff are allowed to use Car Park B in the evenings.", C),
        ("Day staff without a permit can park in Car Park D at 10am.", C),
        ("Night staff are required to park in Car Park D.", N),
    ]),
])

SLICES["entity"] = ("ent", [
    ("Waste and recycling collections in the north of the county (Ashby, Kelton and Morwick) are carried out by "
     "Greenway Environmental under contract to the council. Collections in Harrowgate town and Stenford are "
     "carried out by the council's own Street Scene team.", [
        ("If you live in Kelton, Greenway Environmental collects your bins.", E),
        ("Bins in Stenford are emptied by Greenway Environmental.", C),
        ("Morwick's collections are handled by the Street Scene team.", C),
        ("Greenway Environmental's contract runs until 2029.", N),
    ]),
    ("Information governance contacts\nData Protection Officer: Priya Mehta (Legal Services)\nFOI and EIR requests: "
     "Information Governance team, Corporate Services\nInternal reviews of FOI responses: Daniel Okafor, Head of "
     "Legal", [
        ("If you're unhappy with an FOI response, the internal review is carried out by Daniel Okafor, the Head of "
         "Legal.", E),
        ("The council's DPO is Daniel Okafor.", C),
        ("The Information Governance team sits within Legal Services.", C),
        ("Priya Mehta personally handles every subject access request.", N),
    ]),
    ("Clinical systems. Inpatient records at Harrowgate General Hospital are held in the Medway EPR. Community "
     "nursing notes are recorded in SystmOne. Paper records from both services are scanned by the Health Records "
     "department at St Aldhelm's Hospital.", [
        ("Community nurses write up their notes in SystmOne.", E),
        ("Harrowgate General keeps its inpatient records in SystmOne.", C),
        ("Paper records get scanned at St Aldhelm's.", E),
        ("The Medway EPR went live in 2021.", N),
        ("Paper records are scanned by the Health Records team at Harrowgate General.", C),
    ]),
    ("5.2 Contracts from £25,000 up to £100,000 require three written quotations and the approval of the Head of "
     "Procurement.\n5.3 Contracts above £100,000 must be tendered through the Harrowgate eTender portal and "
     "approved by the Chief Finance Officer (CFO).", [
        ("A £150,000 contract has to go out to tender on eTender and be signed off by the CFO.", E),
        ("The CFO's approval on its own is enough for a £60,000 contract.", C),
        ("A £60,000 contract needs sign-off from both the Head of Procurement and the relevant Director.", N),
        ("Contracts over £100,000 are tendered through the Crown Commercial Service portal.", C),
    ]),
    ("Mobile library timetable: Ashby (Tuesdays), Kelton (Thursdays), Morwick (alternate Saturdays). Harrowgate "
     "Central Library houses the county's local studies archive; Stenford Library holds the music and drama sets "
     "collection.", [
        ("Stenford Library is where the music and drama sets are kept.", E),
        ("You'll find the local studies archive at Stenford Library.", C),
        ("The mobile library stops in Kelton every Thursday.", E),
        ("The mobile library visits Ashby on Wednesdays.", C),
        ("In Morwick the library van parks at the village hall.", N),
    ]),
    ("Concerns about the safety of an adult should be reported to the Adult Social Care Front Door. Concerns about "
     "a child go to the Children's Multi-Agency Safeguarding Hub (MASH). Outside office hours, both services are "
     "covered by the Emergency Duty Team (EDT).", [
        ("If you're worried about a child, contact the MASH.", E),
        ("Worries about an adult's safety should be raised with the MASH.", C),
        ("Out of hours, concerns about an adult are picked up by the EDT.", E),
        ("The Emergency Duty Team is based at County Hall.", N),
    ]),
    ("Schools capital programme. The programme is managed by the Education Property team. Asbestos surveys are "
     "commissioned from Norvale Surveying Ltd; roofing works are delivered by Castlegate Roofing under the "
     "council's 2025-2029 roofing framework.", [
        ("Roof repairs under the framework are carried out by Castlegate Roofing.", E),
        ("Castlegate Roofing carries out the asbestos surveys.", C),
        ("Norvale Surveying was appointed after a tender in 2024.", N),
        ("The schools capital programme is run by the Corporate Property team.", C),
    ]),
    ("Contact centre routing\nCouncil tax and benefits: Revenues and Benefits Service (Kelton office)\nParking "
     "permits and PCNs: Parking Services (Harrowgate Civic Centre)\nHousing repairs: Harrowgate Homes, the council's "
     "arm's-length housing company", [
        ("Questions about a PCN are dealt with by Parking Services at the Civic Centre.", E),
        ("Council tax queries are handled from the Stenford office.", C),
        ("Repairs to council homes are managed by Harrowgate Homes.", E),
        ("Harrowgate Homes also runs the council's homelessness service.", N),
        ("Parking permits are issued by the Revenues and Benefits Service.", C),
    ]),
])

SLICES["multi_passage"] = ("multi", [
    ("Lone working policy, 2.1: A lone worker is any employee who works without close or direct supervision, "
     "including community staff who visit service users in their own homes.\n\nLone working policy, 4.3: All lone "
     "workers must carry a council-issued personal safety device and must log each visit on the SafeCall app before "
     "entering a property.", [
        ("Community staff visiting people at home have to carry a council-issued personal safety device.", E),
        ("Community staff only need to log a home visit on SafeCall once they've left the property.", C),
        ("Office staff who always work alongside their team must carry a safety device.", N),
        ("Community staff on home visits can use their own mobile phone instead of a council safety device.", C),
    ]),
    ("Staff Handbook 2.1 (definitions): Employees on Agenda for Change Band 8a or above are classed as senior "
     "managers.\n\nStaff Handbook 7.4 (rail travel): Senior managers may book first-class rail travel for journeys "
     "of more than two hours. All other staff travel standard class.", [
        ("A Band 9 manager may book first class for a three-hour train journey.", E),
        ("A Band 7 nurse on a three-hour train journey travels standard class.", E),
        ("A Band 8a manager can book first class for a 90-minute journey.", N),
        ("Band 6 staff may travel first class on journeys over two hours.", C),
    ]),
    ("Household Support Fund: eligibility. A household is eligible if it receives Council Tax Reduction or has a "
     "total household income below £21,000. Households meeting neither condition are not eligible.\n\nHousehold "
     "Support Fund: awards. Eligible households with children receive a £150 supermarket voucher. Eligible "
     "households without children receive £100 towards energy costs.", [
        ("A couple with two children and a household income of £18,000 would receive a £150 supermarket "
         "voucher.", E),
        ("A pensioner receiving Council Tax Reduction, with no children in the household, would get £100 towards "
         "energy.", E),
        ("A family earning £25,000 who don't receive Council Tax Reduction would get a £150 voucher.", C),
        ("Households without children can get a £150 energy payment.", C),
        ("A family with children on Council Tax Reduction could get both the voucher and the energy payment.", N),
    ]),
    ("Medicines Policy, definitions: 'High-risk medicines' means insulin, anticoagulants (including warfarin and "
     "apixaban), opioids and methotrexate.\n\nMedicines Policy, 6.3: Every dose of a high-risk medicine must be "
     "independently double-checked by a second registered practitioner before it is administered.", [
        ("Before a nurse gives warfarin, a second registered practitioner must independently check the dose.", E),
        ("Apixaban can be given after a single check.", C),
        ("Paracetamol doses need an independent second check.", N),
        ("Methotrexate doses must be checked by a pharmacist before administration.", N),
    ]),
    ("Housing Allocation Scheme, section 3: Applicants are placed in Band 1 if they are homeless and owed the main "
     "housing duty, or if they have a severe medical need confirmed by the council's medical adviser.\n\nHousing "
     "Allocation Scheme, section 5: Band 1 applicants receive up to three direct offers of suitable accommodation "
     "and do not bid. Applicants in Bands 2 to 4 bid for homes through Harrowgate HomeChoice.", [
        ("Someone who is homeless and owed the main housing duty will get up to three direct offers of housing.", E),
        ("Applicants whose severe medical need has been confirmed by the medical adviser have to bid through "
         "HomeChoice.", C),
        ("An applicant whose own GP confirms a severe medical need goes into Band 1.", N),
        ("Homeless applicants who are owed the main duty can receive five direct offers.", C),
    ]),
    ("Harrowgate Academy key holders: the site manager, the duty caretaker and the members of the senior "
     "leadership team (SLT), which includes the two deputy heads.\n\nOut-of-hours alarm response: the monitoring "
     "company phones key holders in rota order. A key holder who accepts a call-out must be on site within 30 "
     "minutes.", [
        ("If a deputy head accepts an alarm call-out, they must get to the school within half an hour.", E),
        ("A duty caretaker who accepts a call-out has up to an hour to arrive.", C),
        ("Class teachers who aren't on the SLT are sometimes phoned by the monitoring company.", N),
    ]),
    ("Supplier assurance, 1.2: Suppliers with annual spend above £500,000, or with access to council-held personal "
     "data, are classed as Tier 1.\n\nSupplier assurance, 3.1: Tier 1 suppliers must complete the annual security "
     "questionnaire and provide a current ISO 27001 or Cyber Essentials Plus certificate.", [
        ("A payroll provider with access to council-held staff personal data must supply a current ISO 27001 or "
         "Cyber Essentials Plus certificate.", E),
        ("A stationery supplier with £600,000 of annual spend doesn't need to fill in the security "
         "questionnaire.", C),
        ("A cleaning contractor with £200,000 annual spend and no access to personal data must complete the "
         "questionnaire.", N),
        ("Every Tier 1 supplier has to hold ISO 27001.", C),
    ]),
    ("School term dates 2026/27: the autumn term runs from Thursday 3 September 2026 to Friday 18 December 2026, "
     "with half term from Monday 26 to Friday 30 October.\n\nHoliday activity club: the council's club runs every "
     "weekday during school half terms and the Christmas holidays.", [
        ("The holiday club is running on Wednesday 28 October 2026.", E),
        ("The holiday club is open on Monday 2 November 2026.", N),
        ("The holiday club isn't running on Thursday 29 October 2026.", C),
    ]),
    ("Parking zones: Zone H covers Albert Road, Station Street and the western end of Mill Lane. Zone K covers "
     "Kelton town centre.\n\nPermit hours: Zone H permits are valid 8am to 8pm, Monday to Saturday. Zone K permits "
     "are valid 24 hours a day, every day.", [
        ("A resident's permit for Station Street is valid until 8pm on Saturdays.", E),
        ("A permit for the western end of Mill Lane is valid around the clock.", C),
        ("Permits for the eastern end of Mill Lane are valid 24 hours a day.", N),
        ("A Kelton town centre permit is valid on Sundays.", E),
    ]),
    ("CPD policy, definitions: in this policy, 'registered professionals' means staff registered with the NMC, the "
     "HCPC or the GMC.\n\nCPD policy, 4.1: Registered professionals are entitled to five days of paid study leave "
     "a year. Other staff may request study leave, which is granted at their manager's discretion.", [
        ("An HCPC-registered physiotherapist gets five days of paid study leave a year.", E),
        ("An NMC-registered nurse is entitled to ten days of paid study leave a year.", C),
        ("For a GMC-registered doctor, study leave is entirely at the manager's discretion.", C),
        ("Staff not registered with the NMC, HCPC or GMC are entitled to three days of study leave a year.", C),
        ("Registered professionals can carry unused study leave into the next year.", N),
    ]),
    ("Adult Social Care charging, 2.4: 'Eligible care' means care and support arranged by the council to meet "
     "needs assessed under the Care Act.\n\nAdult Social Care charging, 5.1: Nobody is charged for eligible care in "
     "the first six weeks after leaving hospital.", [
        ("Care the council arranges to meet Care Act-assessed needs is free for your first six weeks home from "
         "hospital.", E),
        ("Council-arranged care for assessed Care Act needs is charged from the fourth week after hospital "
         "discharge.", C),
        ("Care you arrange privately is also free for six weeks after discharge.", N),
    ]),
])

SLICES["paraphrase"] = ("para", [
    ("Residents who wish to dispute a penalty charge notice must submit a formal challenge within 28 days of the "
     "date of issue. If the challenge is made within 14 days, the 50% discount remains available while it is "
     "considered.", [
        ("You have four weeks from the date a PCN is issued to challenge it formally, and if you do so inside a "
         "fortnight you keep the half-price rate while it's reviewed.", E),
        ("Challenging a PCN within 14 days means it will be cancelled.", N),
        ("You lose the 50% discount as soon as you lodge a challenge.", C),
    ]),
    ("The assessment of a carer's needs is carried out by a social worker or a trained carer's support worker, "
     "normally in the carer's own home, and is free of charge regardless of the carer's income.", [
        ("There's no fee for a carer's assessment, whatever you earn.", E),
        ("Carers are usually assessed at home, by either a social worker or a trained support worker.", E),
        ("Carers on higher incomes pay towards the cost of their assessment.", C),
        ("A carer's assessment usually takes about two hours.", N),
    ]),
    ("Where a pupil's attendance falls below 90% over a half term, the school will write to the parents; if it "
     "falls below 85%, the case is referred to the Education Welfare Service.", [
        ("Parents get a letter once their child's attendance for a half term dips under 90%, and the Education "
         "Welfare Service becomes involved below 85%.", E),
        ("A pupil with 88% attendance over a half term will be referred to the Education Welfare Service.", N),
        ("Schools refer pupils to the Education Welfare Service when attendance drops below 90%.", C),
    ]),
    ("Any member of staff who suspects a data breach must report it to the Information Governance team "
     "immediately, and in any case within 24 hours of becoming aware of it. The team decides whether the breach "
     "must be reported to the ICO, which must then happen within 72 hours.", [
        ("Whether the ICO is told about a breach is decided by Information Governance, not by the person who "
         "found it.", E),
        ("Employees have a day at most to flag a suspected breach to IG.", E),
        ("The council has 48 hours to notify the ICO of a reportable breach.", C),
        ("Every data breach has to be reported to the ICO.", C),
    ]),
    ("Meals on wheels: hot lunches are delivered between 11.30am and 1.30pm, Monday to Friday. A frozen meal pack "
     "for the weekend can be delivered with Friday's lunch at no extra delivery charge.", [
        ("Weekend meals come frozen with the Friday delivery, and there's no additional delivery fee.", E),
        ("Hot lunches are delivered seven days a week.", C),
        ("The frozen weekend pack costs £12.", N),
        ("Your hot lunch will arrive no later than half past one on a weekday.", E),
    ]),
    ("Complaints are acknowledged within three working days. A full response is sent within 20 working days; "
     "where this is not possible, the complainant is told why and given a new date.", [
        ("If the council can't send a full reply within 20 working days, it will explain the delay and give you a "
         "revised date.", E),
        ("You'll hear that your complaint has been received within three working days.", E),
        ("Complaints that can't be answered within 20 working days are passed to the Ombudsman.", N),
        ("Complaints are acknowledged within five working days.", C),
    ]),
    ("Adult social care charges: people with savings of over £23,250 pay the full cost of their care. Below that "
     "figure, the council carries out a financial assessment to work out what they should contribute.", [
        ("If your savings are under £23,250, the council will look at your finances to decide how much you "
         "pay.", E),
        ("Anyone with more than £23,250 in savings is expected to meet the entire cost of their care.", E),
        ("People with savings of £30,000 have their contribution worked out through a financial assessment.", C),
        ("The savings threshold will rise to £100,000 in 2027.", N),
    ]),
    ("Fire doors must be kept closed at all times unless held open by an approved magnetic release connected to "
     "the fire alarm. Wedging fire doors open is a disciplinary offence.", [
        ("Propping a fire door open with a wedge could get you disciplined.", E),
        ("The only approved way to hold a fire door open is an alarm-linked magnetic release.", E),
        ("Fire doors may be wedged open in hot weather.", C),
        ("Fire doors are inspected every six months.", N),
    ]),
    ("BorrowBox, the library's e-book service, allows members to borrow up to eight e-books and eight "
     "e-audiobooks at a time, each for 21 days. Titles are returned automatically at the end of the loan.", [
        ("On BorrowBox you can hold sixteen titles at once if you split them evenly between e-books and "
         "audiobooks.", E),
        ("You don't have to return e-books yourself; they go back automatically after three weeks.", E),
        ("E-books are lent for 14 days.", C),
        ("You can renew an e-book once.", N),
    ]),
    ("Applications for a dropped kerb are assessed by the Highways team. Planning permission is needed as well "
     "where the road is a classified road; for unclassified roads, the Highways team's approval is sufficient.", [
        ("For an unclassified road, you only need Highways' approval for a dropped kerb.", E),
        ("A dropped kerb onto a classified road needs only the Highways team's approval.", C),
        ("Dropped kerb applications are assessed by Planning, not Highways.", C),
        ("A dropped kerb application costs £150.", N),
    ]),
])

SLICES["distractor"] = ("dist", [
    ("Pest control: the council offers a treatment service for rats and mice in domestic properties. Treatments "
     "for rats are free for residents receiving council tax support; all other residents pay a standard charge of "
     "£75.", [
        ("Wasp nest removal costs £60.", N),
        ("The council doesn't treat bedbugs.", N),
        ("If you get council tax support, rat treatment costs you nothing.", E),
        ("Commercial premises can book pest control through the same service.", N),
    ]),
    ("Hospital car parking: patients attending for chemotherapy or renal dialysis, and Blue Badge holders, park "
     "free in Car Park B. Exemption passes are issued from the main reception.", [
        ("Staff can park for free after 8pm.", N),
        ("Car Park B has 120 spaces.", N),
        ("Dialysis patients don't pay to park in Car Park B.", E),
        ("Parents of babies on the neonatal unit can get free parking.", N),
    ]),
    ("The Harrowgate levy transfer scheme allows the council to pass up to 25% of its unspent apprenticeship levy "
     "funds to local small businesses, to fund apprenticeships in health and social care, construction and "
     "digital skills.", [
        ("Businesses must apply through the council's website by 31 March.", N),
        ("Apprentices funded by the scheme are paid the Real Living Wage.", N),
        ("A small local business taking on a construction apprentice could be funded through the scheme.", E),
    ]),
    ("Sickness absence: employees must phone their line manager before their shift starts on the first day of "
     "absence. A fit note is needed for absences of more than seven calendar days.", [
        ("Sick pay is paid at the full rate for six months.", N),
        ("A return-to-work interview is held after every absence.", N),
        ("Staff are referred to occupational health after four weeks off sick.", N),
        ("On the first day you're off sick, you need to call your manager before your shift begins.", E),
    ]),
    ("Tree preservation orders (TPOs): you need the council's consent to prune or fell a tree protected by a TPO. "
     "Applications are free and are normally decided within eight weeks.", [
        ("Trees in conservation areas need six weeks' notice before any work is done.", N),
        ("Dead trees can be removed without consent.", N),
        ("Breaching a TPO can lead to a fine of up to £20,000.", N),
        ("There's no fee to apply for work on a protected tree.", E),
    ]),
    ("The school-aged immunisation team gives the HPV vaccine to Year 8 pupils, and the teenage booster (Td/IPV) "
     "and MenACWY vaccines to Year 9 pupils, in school.", [
        ("Primary school children are offered the flu vaccine at school.", N),
        ("Parents must return the consent form at least a week before the session.", N),
        ("Year 9 pupils receive MenACWY at school.", E),
    ]),
    ("Allotments: plots are let on annual tenancies running from 1 October. Full plots are 250 square metres and "
     "half plots 125 square metres. Tenants must keep at least 75% of their plot under cultivation.", [
        ("Rent for a full plot is £48 a year.", N),
        ("Bonfires are allowed on allotments after 6pm.", N),
        ("The waiting list for a plot is currently about two years.", N),
        ("Tenants may keep chickens on a full plot.", N),
    ]),
    ("Registering a death: deaths in Harrowgate County must be registered within five days, by appointment at the "
     "Register Office in Harrowgate Civic Centre or at Kelton Library.", [
        ("A death certificate costs £12.50.", N),
        ("You can register a death online.", N),
        ("You can register a death by appointment at Kelton Library.", E),
    ]),
])

SLICES["added_specifics"] = ("spec", [
    ("The council's Occupational Health service offers confidential counselling to all employees. Staff can "
     "self-refer by emailing the OH inbox.", [
        ("You can refer yourself to Occupational Health for confidential counselling.", E),
        ("You can self-refer for up to six counselling sessions.", N),
        ("Counselling is provided by an external company, Health Assured.", N),
        ("Staff can self-refer for counselling once they have passed probation.", N),
    ]),
    ("Discharge medicines (TTOs) are dispensed by the ward pharmacy team once the doctor has completed the "
     "electronic discharge summary.", [
        ("Pharmacy prepares your take-home medicines after the doctor finishes the electronic discharge "
         "summary.", E),
        ("TTOs are usually ready within two hours of the discharge summary being completed.", N),
        ("TTOs wait for the discharge summary so that the GP receives an accurate list of medicines.", N),
        ("At weekends, TTOs are dispensed by the on-call pharmacist.", N),
    ]),
    ("Schools must publish their admissions arrangements on their website. Objections to a school's arrangements "
     "can be made to the Schools Adjudicator.", [
        ("Parents who disagree with a school's admissions arrangements can object to the Schools Adjudicator.", E),
        ("Objections must reach the Schools Adjudicator by 15 May.", N),
        ("Schools must publish their admissions arrangements on their website and in the local newspaper.", N),
    ]),
    ("Public health funerals: where someone dies and no one is able or willing to arrange a funeral, the council "
     "arranges a simple funeral. The council may recover its costs from the deceased person's estate.", [
        ("The council can reclaim the cost from the estate of the person who died.", E),
        ("The council arranges a cremation rather than a burial.", N),
        ("The council always recovers its costs from the estate.", N),
        ("The council arranges a simple funeral within ten days of being told about the death.", N),
    ]),
    ("Pregnant employees are entitled to paid time off for antenatal appointments. They should give their manager "
     "a copy of the appointment card if asked.", [
        ("If you're pregnant, you can take paid time off to attend antenatal care.", E),
        ("Partners are entitled to unpaid leave for two antenatal appointments.", N),
        ("Pregnant staff must show their appointment card before every appointment.", N),
        ("Paid time off for antenatal appointments starts from the twelfth week of pregnancy.", N),
    ]),
    ("Winter gritting: the council grits its priority 1 network (A roads, bus routes and roads to hospitals) "
     "whenever road surface temperatures are forecast to fall below 1°C.", [
        ("Roads leading to hospitals are on the priority 1 gritting network.", E),
        ("Priority 1 routes are gritted before 6am.", N),
        ("The council grits bus routes when the forecast is below 1°C because buses can't fit snow chains.", N),
        ("Gritting is carried out by the Street Scene team.", N),
    ]),
    ("Employees may buy up to five days of additional annual leave each year through the salary sacrifice "
     "scheme.", [
        ("You can buy as many as five extra days of holiday a year through salary sacrifice.", E),
        ("Bought leave must be used by 31 March.", N),
        ("The cost of bought leave is spread over twelve monthly salary deductions.", N),
    ]),
    ("Ward 7 (Acute Medicine) accepts direct admissions from the Emergency Department and from GP referrals "
     "through the Same Day Emergency Care unit.", [
        ("Patients referred by a GP through Same Day Emergency Care can be admitted straight to Ward 7.", E),
        ("Ward 7 accepts direct admissions from the Emergency Department between 8am and 8pm.", N),
        ("Ward 7 has 28 beds.", N),
        ("Ward 7 takes GP referrals through SDEC only for patients aged over 65.", N),
    ]),
])

# Long passages: 280-350 words each; the sentence that decides each label sits in the middle.
LONG_1 = (
    "Staff Handbook, Section 6: Leave and flexible working (version 4.2, approved by the Employment Committee in "
    "January 2026)\n"
    "6.1 All employees have the right to request flexible working from their first day of employment. Requests are "
    "made on form FW1 and sent to the line manager, who must meet the employee within 14 days and give a written "
    "decision within two months of receiving the request. Employees may make up to two requests in any 12-month "
    "period.\n"
    "6.2 Annual leave for full-time staff is 27 days plus eight bank holidays. After five years' continuous local "
    "government service this rises to 30 days. Part-time staff receive a pro rata entitlement, calculated in hours. "
    "Up to five days may be carried over into the next leave year with the line manager's agreement; any further "
    "carry-over requires the approval of the Head of HR.\n"
    "6.3 Compassionate leave of up to five days on full pay is available following the death of a close relative. "
    "Managers may grant up to a further five days of unpaid leave at their discretion. Time off for dependants in "
    "an emergency is unpaid, except that the first day of each episode is paid, up to a maximum of three paid days "
    "in a leave year.\n"
    "6.4 Parental leave of up to 18 weeks per child is available until the child's 18th birthday. It is unpaid and "
    "must be taken in blocks of one week, with a maximum of four weeks per child in any year. Employees must give "
    "at least 21 days' notice.\n"
    "6.5 Jury service is on full pay; employees must claim the loss of earnings allowance from the court and repay "
    "it to the council. Reservists called up for service should contact HR as soon as they receive their notice. "
    "(See also Section 9, Special leave for public duties, which covers magistrates, school governors and "
    "councillors serving on another"
)

LONG_2 = (
    "Infection Prevention and Control Procedure IPC-07: suspected norovirus on inpatient wards\n"
    "Scope: all adult inpatient wards at Harrowgate General Hospital and St Aldhelm's Hospital. Paediatric wards "
    "follow IPC-07P.\n"
    "1. A patient with two or more episodes of unexplained diarrhoea or vomiting within 24 hours should be treated "
    "as a suspected case. Move the patient to a single room with en-suite facilities within two hours where one is "
    "available; if not, close the bay and inform the site manager.\n"
    "2. Send a stool sample to microbiology, marked 'query norovirus'. Results are normally available within 48 "
    "hours on weekdays.\n"
    "3. Staff must wear gloves and an apron for all contact with the patient and their environment. "
    "Fluid-resistant surgical masks are required only where there is a risk of splashing, for example while the "
    "patient is actively vomiting. Alcohol gel is not effective against norovirus: hands must be washed with soap "
    "and water after every contact.\n"
    "4. The ward is declared an outbreak ward when two or more linked cases occur within 72 hours. The IPC team, "
    "not the ward manager, makes this declaration. During an outbreak, admissions and transfers into the affected "
    "bay are stopped, and visiting is restricted to one visitor per patient.\n"
    "5. Chlorine-based cleaning at 1,000 parts per million is used twice daily on all touch points in affected "
    "areas. Curtains are changed when the bay is terminally cleaned.\n"
    "6. A bay may reopen once 48 hours have passed since the last episode of symptoms in any patient in that bay, "
    "following a terminal clean. Staff with symptoms must not return to work until they have been free of "
    "symptoms for 48 hours.\n"
    "7. Report every suspected case on Datix within the same shift. The IPC team updates the outbreak log daily "
    "and notifies the UK Health Security Agency of confirmed outbreaks."
)

LONG_3 = (
    "Harrowgate County Council: Council Tax Reduction (CTR) scheme 2026/27, summary for advisers\n"
    "Who can apply. Working-age residents who are liable for council tax on the home they live in, and whose "
    "capital is below £10,000, may apply. Pension-age applicants are assessed under the national scheme, not this "
    "one. Applications are made online or with the help of the Revenues team at the customer service centres in "
    "Harrowgate, Kelton and Stenford.\n"
    "How much. The scheme uses weekly net income bands, after allowable deductions. The reduction awarded in each "
    "band is:\n"
    "Band 1 (£0-£120): 80% | Band 2 (£120.01-£200): 60% | Band 3 (£200.01-£280): 40% | Band 4 (£280.01-£360): "
    "20% | Above £360: no reduction\n"
    "Households that include a disabled person or a child under five are placed one band lower than their income "
    "would indicate (for example, a Band 3 household with a child aged three receives the Band 2 reduction). "
    "Child benefit and disability benefits are disregarded as income.\n"
    "Backdating. A claim can be backdated by up to six months if the applicant shows good reason for not applying "
    "earlier. Requests to backdate further than six months are refused.\n"
    "Changes. Applicants must report changes in income or household membership within 21 days. Overpayments are "
    "added to the council tax account and recovered through the bill.\n"
    "Appeals. If you disagree with a decision, write to the council within one month. If the council has not "
    "resolved the dispute within two months, you may appeal directly to the Valuation Tribunal.\n"
    "Hardship. A separate Exceptional Hardship Fund of £150,000 is available in 2026/27 for residents who still "
    "cannot pay after CTR has been awarded. Awards are discretionary and are reviewed after three months. Advisers "
    "should note that an award from the fund does not count as income for CTR purposes, and that applicants who "
    "refuse to engage with the council's free debt advice partner may have their"
)

LONG_4 = (
    "Home to School Transport Policy 2026/27 (extract)\n"
    "2.1 The council provides free transport for children of compulsory school age who attend their nearest "
    "suitable school and live beyond the statutory walking distance. The statutory walking distance is two miles "
    "for children under eight and three miles for children aged eight and over, measured along the shortest "
    "available walking route.\n"
    "2.2 Children from low-income families (those entitled to free school meals, or whose parents receive the "
    "maximum Working Tax Credit) qualify for free transport to one of their three nearest secondary schools if it "
    "is between two and six miles from home.\n"
    "2.3 Transport to faith schools is not provided on grounds of religion or belief, except for low-income "
    "families under 2.2. Parents who choose a school other than the nearest suitable school are responsible for "
    "transport.\n"
    "2.4 Post-16 students may buy a Harrowgate Student Travel Pass at £390 per academic year, payable in three "
    "termly instalments of £130. Students whose families receive Universal Credit pay half price.\n"
    "2.5 Applications for September should be made by 31 May. Late applications are processed within 20 school "
    "days, and parents are responsible for transport in the meantime.\n"
    "2.6 Pupils with an Education, Health and Care plan (EHCP) are assessed individually by the SEND Transport "
    "team; eligibility does not depend on distance alone. Personal Travel Budgets of up to £2,500 a year may be "
    "offered as an alternative to a taxi or minibus place.\n"
    "2.7 Pupils who endanger others on transport may have their place withdrawn for up to five days by the "
    "Passenger Transport Manager, or permanently following a review by the Head of Education Services. Appeals "
    "against transport decisions are heard by the Transport Appeals Panel, which meets monthly.\n"
    "(Continued in Section 3: Routes, pick-up points and safety. Parents should note that pick-up points may be up "
    "to one mile from home for primary pupils and up to"
)

LONG_5 = (
    "Contract Procedure Rules (CPR), Part 4: thresholds and approvals (effective 1 April 2026)\n"
    "4.1 These rules apply to all purchases of goods, services and works by council officers, including schools "
    "that buy through the council's central systems. They do not apply to property acquisitions or to employment "
    "contracts.\n"
    "4.2 The value of a contract is its total estimated value over its full term, including any extension "
    "options, excluding VAT. Contracts must not be split to avoid a threshold.\n"
    "4.3 Thresholds:\n"
    "- Up to £5,000: one quote; purchase order raised by the budget holder.\n"
    "- £5,000.01 to £30,000: three written quotes, at least one from a local supplier where possible; approval by "
    "the Head of Service.\n"
    "- £30,000.01 to £214,904: a competitive tender advertised on the Harrowgate eTender portal and on Contracts "
    "Finder; approval by the relevant Director.\n"
    "- Above £214,904: a procurement under the Procurement Act 2023, run by the Corporate Procurement team; award "
    "approved by Cabinet.\n"
    "4.4 Waivers of these rules may be granted up to £100,000 by the Chief Finance Officer, and above that by the "
    "Chief Finance Officer together with the Monitoring Officer. Every waiver must be recorded on the waiver "
    "register within five working days.\n"
    "4.5 Contracts above £30,000 must be published on the council's contracts register within 30 days of award. "
    "Contracts of £500,000 or more must be sealed (see CPR 6.2).\n"
    "4.6 Officers must declare any conflict of interest before taking part in a procurement. A supplier found "
    "guilty of fraud in the last five years is excluded.\n"
    "4.7 Social value must count for at least 10% of the evaluation score in all tenders above £100,000. For "
    "construction works above £1 million, the minimum weighting is 15%.\n"
    "4.8 Breaches of these rules are reported to the Audit Committee by the Chief Internal Auditor twice a year. "
    "Officers who are unsure which threshold applies should contact the Corporate Procurement helpdesk before "
    "seeking quotes, and must keep a written record of the advice they receive."
)

LONG_6 = (
    "Welcome to the Harrowgate Birth Centre: information for women, birthing people and families\n"
    "The Birth Centre is a midwife-led unit on the ground floor of the Women's Health Building at Harrowgate "
    "General Hospital. It has six birthing rooms, four of them with birth pools, and is open 24 hours a day, every "
    "day of the year. The obstetric-led Delivery Suite is on the first floor of the same building.\n"
    "Who can give birth here. The Birth Centre is for people with a straightforward pregnancy who go into labour "
    "between 37 and 42 weeks. If you have had a previous caesarean section, a BMI above 35 at booking, or a twin "
    "pregnancy, your midwife will recommend the Delivery Suite instead, although you can discuss your choices with "
    "a consultant midwife.\n"
    "Pain relief. Gas and air (Entonox), water, massage and TENS machines are available in the Birth Centre. "
    "Epidurals are not available here; if you want an epidural you will be transferred to the Delivery Suite, "
    "which takes about ten minutes. Pethidine can be given by a midwife in either area.\n"
    "Visitors. Two birth partners may stay with you throughout labour, and one of them may stay overnight after "
    "the birth. Other visitors, including your other children, are welcome between 2pm and 7pm. Please do not "
    "visit if you have had diarrhoea, vomiting or a fever in the last 48 hours.\n"
    "Going home. Most people go home between six and twelve hours after a straightforward birth. A community "
    "midwife will visit you at home on the day after you leave, and again on day five, when the newborn blood spot "
    "test is carried out.\n"
    "Parking. Car Park C is closest to the Women's Health Building. Parking is free for the first 30 minutes and "
    "costs £3.50 for up to four hours. Birth partners can buy a weekly pass for £12 from the main reception. (For "
    "interpreting services and"
)

LONG_7 = (
    "Harrowgate Libraries: membership and borrowing rules (revised March 2026)\n"
    "Joining. Membership is free to anyone who lives, works or studies in Harrowgate County. Adults must show "
    "proof of name and address; children under 16 need a parent or carer to sign their application. Temporary "
    "membership is available to visitors for up to three months, with borrowing limited to four items.\n"
    "Borrowing limits. Adult members can borrow up to 20 items at a time, of which no more than six may be DVDs. "
    "Children can borrow up to 12 items. Items are issued for three weeks and can be renewed up to three times "
    "online, by phone or in person, unless another member has reserved them.\n"
    "Charges. Overdue charges apply only to adult members, at 25p per item per day, up to a maximum of £6 per "
    "item. Members aged 60 and over, and those with a Harrowgate Access Card, pay no overdue charges. DVDs cost "
    "£1.50 per week to hire; children's DVDs are free. Lost or damaged items are charged at the replacement cost "
    "plus a £3 processing fee.\n"
    "Reservations. Adults can reserve up to ten items at once, for £1 each; reservations for children, and for "
    "items in large print or audio formats, are free. Reserved items are kept for seven days after the member is "
    "told they are ready.\n"
    "Computers and Wi-Fi. Members can use the public computers free for two hours a day; non-members pay £2 an "
    "hour. Printing costs 15p per black-and-white page and 50p per colour page.\n"
    "Behaviour. A member banned from one library is banned from all libraries in the county for the same period. "
    "The Libraries Manager may suspend a membership for up to six months; longer bans must be approved by the "
    "Head of Culture and Communities. Members may ask for a suspension to be reviewed by writing to the Head of "
    "Culture and Communities within 28 days of the decision."
)

LONG_8 = (
    "Information Governance Policy IG-03: handling requests for personal information\n"
    "1. Scope. This policy covers subject access requests (SARs) made under the UK GDPR to Harrowgate County "
    "Council and to Harrowgate Schools Support Services, which the council hosts. Requests to the Harrowgate "
    "Hospitals NHS Trust are handled by the Trust's own Information Governance department.\n"
    "2. Receiving a request. A SAR can be made verbally or in writing, to any member of staff. Staff must forward "
    "it to the Information Governance (IG) team on the day it is received. The requester does not have to mention "
    "the UK GDPR or use the words 'subject access'.\n"
    "3. Identity and fees. The IG team may ask for proof of identity where it is unsure who is making the request; "
    "the time limit starts when identity is confirmed. No fee is charged unless a request is manifestly unfounded "
    "or excessive, in which case a reasonable fee, set by the Data Protection Officer (DPO), may be charged.\n"
    "4. Time limits. The council must respond within one calendar month. This can be extended by up to two "
    "further months where requests are complex or numerous; the requester must be told about the extension, and "
    "the reasons for it, within the first month.\n"
    "5. Redaction. Third-party information is redacted unless the third party has consented or it is reasonable "
    "to disclose it without consent. Redactions are checked by a second IG officer before release. Social care "
    "files are also reviewed by a senior social worker before disclosure.\n"
    "6. Format. Responses are sent by secure email through Egress unless the requester asks for paper copies, "
    "which are sent by recorded delivery.\n"
    "7. Retention and complaints. SAR case files are kept for two years after closure and then securely "
    "destroyed. Complaints about the handling of a SAR are reviewed by the DPO; requesters may also complain to "
    "the Information Commissioner's Office (ICO) at any time."
)

SLICES["long_passage"] = ("long", [
    (LONG_1, [
        ("If a close relative dies, you can take up to five days' compassionate leave on full pay, and your manager "
         "can add up to five more days unpaid.", E),
        ("Emergency time off for dependants is paid for up to five days a year.", C),
        ("Carrying over more than five days of leave needs the Head of HR's approval.", E),
        ("Part-time employees get the same 27 days of annual leave as full-time staff.", C),
        ("Compassionate leave can also be taken when a close friend dies.", N),
    ]),
    (LONG_2, [
        ("After caring for a patient with suspected norovirus, wash your hands with soap and water rather than "
         "relying on alcohol gel.", E),
        ("Ward managers are responsible for declaring a norovirus outbreak.", C),
        ("Surgical masks must be worn for all contact with a suspected norovirus patient.", C),
        ("During an outbreak, each patient in the affected bay may have one visitor.", E),
        ("Agency staff must be excluded from outbreak wards.", N),
    ]),
    (LONG_3, [
        ("An eligible working-age household with a weekly net income of £240 and a four-year-old child would get a 60% "
         "reduction.", E),
        ("An eligible household on £150 a week with no disabled members and no children under five gets a 40% "
         "reduction.", C),
        ("Child benefit counts as income when your band is worked out.", C),
        ("With good reason, a CTR claim can be backdated by up to a year.", C),
        ("The Exceptional Hardship Fund is administered by Citizens Advice.", N),
    ]),
    (LONG_4, [
        ("If you choose a school other than your nearest suitable one, getting your child there is up to "
         "you.", E),
        ("A post-16 travel pass costs £390 a year, or £195 if your family receives Universal Credit.", E),
        ("Late applications for school transport are processed within ten school days.", C),
        ("Children on free school meals get free transport to any secondary school within six miles.", C),
        ("Personal Travel Budgets are paid to parents monthly.", N),
    ]),
    (LONG_5, [
        ("A three-year cleaning contract worth £12,000 a year needs a competitive tender on eTender and Contracts "
         "Finder, approved by the relevant Director.", E),
        ("The Chief Finance Officer can grant a £150,000 waiver alone.", C),
        ("For a £20,000 purchase you'll need three written quotes, with the Head of Service approving it.", E),
        ("Contracts above £30,000 have to appear on the contracts register within 60 days of award.", C),
        ("Schools buying goods outside the council's central systems must follow these thresholds.", N),
    ]),
    (LONG_6, [
        ("You can't have an epidural in the Birth Centre; you'd need to move upstairs to the Delivery Suite.", E),
        ("Only one birth partner is allowed to stay during labour.", C),
        ("Your other children can visit in the afternoon or early evening, between 2 and 7pm.", E),
        ("Pethidine is available only on the Delivery Suite.", C),
        ("The two birthing rooms without pools are equipped with birthing stools.", N),
    ]),
    (LONG_7, [
        ("A 65-year-old member returning a book late won't be charged anything for the delay.", E),
        ("Reserving a large-print book is free.", E),
        ("You can renew a library item as many as five times.", C),
        ("Adult members can have up to eight DVDs out at once.", C),
        ("Reserved items are held for a fortnight once you've been told they're ready.", C),
        ("Holders of a Harrowgate Access Card also get free DVD hire.", N),
    ]),
    (LONG_8, [
        ("If the council extends the deadline for a complex SAR, it must tell you, and explain why, within the "
         "first month.", E),
        ("Staff who receive a SAR have five working days to pass it on to the IG team.", C),
        ("The council normally charges a £10 fee for a subject access request.", C),
        ("Redacted material is checked by a second IG officer before it's released.", E),
        ("Social care files only need checking by the IG team before they are disclosed.", C),
        ("A subject access request will only be accepted if it is made in writing.", C),
        ("Paper copies sent by recorded delivery cost the requester £5.", N),
    ]),
])

# Perturbation groups. Each: sentences (joined by `join`), base hypothesis (entailment), flips, order permutation.
# A flip is ("premise", old, new, label) -- `old` must occur exactly once in the base premise -- or
# ("hypothesis", new_hypothesis, label).
PERTURBATIONS = [
    dict(sents=["Applications for a residents' parking permit must include proof of address dated within the last "
                "three months.",
                "Acceptable proof of address includes a council tax bill, a tenancy agreement or a utility bill.",
                "Residents' parking permits are issued within five working days of a complete application."],
         hyp="A utility bill from the last three months can be used as proof of address when you apply for a "
             "residents' permit.",
         flips=[("premise", "within the last three months", "within the last month", C),
                ("premise", "or a utility bill", "or a bank statement", N)],
         order=[2, 0, 1]),
    dict(sents=["Agency nurses must complete the trust's local induction before working their first shift.",
                "The local induction for agency nurses is delivered by the ward manager or the nurse in charge.",
                "Signed induction checklists are kept by the Temporary Staffing Office."],
         hyp="The signed induction checklists are held by the Temporary Staffing Office.",
         flips=[("premise", "kept by the Temporary Staffing Office", "kept by the Practice Education team", C),
                ("hypothesis", "The signed induction checklists are held by the Temporary Staffing Office for six "
                               "years.", N)],
         order=[2, 1, 0]),
    dict(sents=["The council tax single person discount is 25% of the annual bill.",
                "The single person discount applies when only one adult aged 18 or over lives in the property.",
                "Students and live-in carers are disregarded when the council counts the adults in a property."],
         hyp="If you're the only adult living in your home, your council tax bill is reduced by a quarter.",
         flips=[("premise", "is 25% of the annual bill", "is 20% of the annual bill", C),
                ("hypothesis", "If you're the only adult living in your home, your council tax bill is reduced by a "
                               "third.", C)],
         order=[1, 2, 0]),
    dict(sents=["FOI requests to the council must be made in writing, which includes email.",
                "Anyone making an FOI request must give their real name and an address for correspondence.",
                "The council will respond to an FOI request within 20 working days of receiving it."],
         hyp="You'll get a response to an emailed FOI request within 20 working days.",
         flips=[("premise", "within 20 working days", "within 15 working days", C),
                ("premise", "which includes email", "which does not include email", C)],
         order=[2, 1, 0]),
    dict(sents=["Visitors to the Stroke Unit must use the alcohol gel at the ward entrance.",
                "On the Stroke Unit, no more than two visitors may be at a bedside at any one time.",
                "Children under 12 may visit the Stroke Unit only with the agreement of the nurse in charge."],
         hyp="A maximum of two people can be at a patient's bedside at once on the Stroke Unit.",
         flips=[("premise", "no more than two visitors", "no more than three visitors", C),
                ("premise", "On the Stroke Unit, no more", "On the Cardiac Unit, no more", N)],
         order=[1, 0, 2]),
    dict(sents=["The Community Transport scheme is for residents who cannot use public buses because of age, "
                "disability or illness.",
                "Community Transport journeys must be booked at least 48 hours in advance.",
                "Community Transport operates Monday to Friday, 8am to 6pm."],
         hyp="You need to book Community Transport at least two days ahead.",
         flips=[("premise", "at least 48 hours in advance", "at least 24 hours in advance", C),
                ("hypothesis", "You need to book Community Transport at least two days ahead, and it also runs on "
                               "Saturdays.", C)],
         order=[2, 0, 1]),
    dict(sents=["Expenses claims over £250 must be approved by a head of service.",
                "Expenses claims are submitted through the iTrent self-service portal.",
                "Receipts must be attached for every item on an expenses claim."],
         hyp="A £300 expenses claim needs sign-off from a head of service.",
         flips=[("premise", "approved by a head of service", "approved by the budget holder", N),
                ("hypothesis", "A £300 expenses claim can be approved by your line manager alone.", C)],
         order=[2, 1, 0]),
    dict(sents=["Harrowgate Libraries lend items free of charge to members aged under 18.",
                "Adult library members pay £1.50 to reserve an item.",
                "Reserved items can be collected from any library in the county."],
         hyp="Reserving a book costs an adult member one pound fifty.",
         flips=[("premise", "pay £1.50 to reserve", "pay £2.50 to reserve", C),
                ("premise", "Adult library members pay", "Non-resident library members pay", N)],
         order=[1, 2, 0]),
    dict(sents=["Discharge letters are sent to the patient's GP electronically within 24 hours of discharge.",
                "Patients are given a copy of their discharge letter before they leave the ward.",
                "Discharge letters list every medicine started, stopped or changed during the hospital stay."],
         hyp="Your GP gets your discharge letter electronically no later than a day after you leave hospital.",
         flips=[("premise", "within 24 hours of discharge", "within 48 hours of discharge", C),
                ("premise", "to the patient's GP electronically", "to the patient's GP by post", C)],
         order=[2, 1, 0]),
    dict(sents=["Road closure applications for street parties must reach the council at least six weeks before the "
                "event.",
                "The council makes no charge for a street party road closure.",
                "The organiser of a street party must hold public liability insurance of at least £5 million."],
         hyp="Street party organisers need a minimum of £5m of public liability cover.",
         flips=[("premise", "of at least £5 million", "of at least £2 million", C),
                ("premise", "must hold public liability insurance", "is advised to hold public liability "
                                                                    "insurance", N)],
         order=[2, 0, 1]),
    dict(sents=["Only the Chief Executive can authorise use of the council seal.",
                "Requests to use the council seal are logged by Democratic Services.",
                "Sealed documents are stored in the strongroom at County Hall."],
         hyp="Use of the council seal has to be authorised by the Chief Executive.",
         flips=[("premise", "Only the Chief Executive", "Only the Monitoring Officer", C),
                ("hypothesis", "Either the Chief Executive or the Leader of the Council can authorise use of the "
                               "seal.", C)],
         order=[2, 1, 0]),
    dict(sents=["Definitions: 'looked-after children' are children in the care of Harrowgate County Council, "
                "including those in foster care.",
                "Leisure passes: every looked-after child is issued a free leisure pass, giving free swimming at all "
                "council leisure centres."],
         join="\n\n",
         hyp="A child in foster care with the council gets free swimming at council leisure centres.",
         flips=[("premise", "including those in foster care", "excluding those in foster care", N),
                ("premise", "giving free swimming", "giving half-price swimming", C)],
         order=[1, 0]),
    dict(sents=["Members of the public may speak at Planning Committee for up to three minutes.",
                "Requests to speak at Planning Committee must be registered by noon on the working day before the "
                "meeting.",
                "Planning Committee meets on the first Wednesday of each month."],
         hyp="For the October 2026 Planning Committee, requests to speak must be in by noon on Tuesday 6 October.",
         flips=[("premise", "the first Wednesday of each month", "the first Thursday of each month", C),
                ("premise", "registered by noon on", "registered by 5pm on", C)],
         order=[2, 1, 0]),
    dict(sents=["Employees can carry over up to five days of unused annual leave into the next leave year.",
                "Carried-over annual leave must be taken by 30 June.",
                "The leave year runs from 1 April to 31 March."],
         hyp="Any holiday you carry over has to be used by the end of June.",
         flips=[("premise", "must be taken by 30 June", "must be taken by 31 May", C),
                ("hypothesis", "Any holiday you carry over has to be used by the end of June, and you can carry "
                               "over up to ten days.", C)],
         order=[1, 2, 0]),
    dict(sents=["Home care visits are scheduled in 30-minute or 45-minute slots.",
                "Home carers must record their arrival and departure times on the CareLink app.",
                "A missed home care visit must be reported to the duty coordinator within one hour."],
         hyp="If a home care visit is missed, the duty coordinator has to be told within sixty minutes.",
         flips=[("premise", "reported to the duty coordinator", "reported to the registered manager", N),
                ("premise", "within one hour", "within four hours", C)],
         order=[2, 0, 1]),
    dict(sents=["Definitions: the 'north locality' means the wards of Ashby, Kelton and Morwick.",
                "Reablement: in the north locality, short-term reablement after hospital discharge is provided by "
                "the council's in-house Reablement Team for up to six weeks."],
         join="\n\n",
         hyp="If you live in Morwick, the council's in-house team provides your reablement after you leave "
             "hospital.",
         flips=[("premise", "Ashby, Kelton and Morwick", "Ashby, Kelton and Stenford", N),
                ("premise", "the council's in-house Reablement Team", "Brightwell Care, under contract", C)],
         order=[1, 0]),
]

SLICE_ORDER = ["numeric", "dates", "negation", "entity", "multi_passage", "paraphrase", "distractor",
               "added_specifics", "long_passage", "perturbation"]
PREFIX = {s: SLICES[s][0] for s in SLICES}
PREFIX["perturbation"] = "pert"
LABELS = {E, N, C}


def build():
    rows = []
    for name in SLICE_ORDER[:-1]:
        prefix, items = SLICES[name]
        i = 0
        for premise, hyps in items:
            for hyp, label in hyps:
                i += 1
                rows.append({"id": f"{prefix}-{i:03d}", "premise": premise, "hypothesis": hyp, "label": label,
                             "slice": name})
    for g, grp in enumerate(PERTURBATIONS, 1):
        join = grp.get("join", " ")
        base_premise = join.join(grp["sents"])
        gid = f"pert-{g:03d}"
        rows.append({"id": gid, "premise": base_premise, "hypothesis": grp["hyp"], "label": E,
                     "slice": "perturbation", "group": gid})
        for f, flip in enumerate(grp["flips"], 1):
            if flip[0] == "premise":
                _, old, new, label = flip
                assert base_premise.count(old) == 1, (gid, old)
                premise, hyp = base_premise.replace(old, new), grp["hyp"]
            else:
                _, hyp, label = flip
                premise = base_premise
            rows.append({"id": f"{gid}-f{f}", "premise": premise, "hypothesis": hyp, "label": label,
                         "slice": "perturbation", "group": gid, "perturbation": "flip"})
        order = grp["order"]
        assert sorted(order) == list(range(len(grp["sents"]))) and order != list(range(len(order))), gid
        rows.append({"id": f"{gid}-o", "premise": join.join(grp["sents"][k] for k in order),
                     "hypothesis": grp["hyp"], "label": E, "slice": "perturbation", "group": gid,
                     "perturbation": "order"})
    return rows


def own_errors(rows):
    """This set's own rule: a long passage has 280-350 words."""
    out = []
    for r in rows:
        if r.get("slice") == "long_passage" and not 280 <= len(r.get("premise", "").split()) <= 350:
            out.append(f"{r.get('id')}: long passage has {len(r.get('premise', '').split())} words")
    return out


if __name__ == "__main__":
    sys.exit(_devset.main(sys.argv[1:], OUT, build, {s: PREFIX[s] for s in SLICE_ORDER}, own_errors))
