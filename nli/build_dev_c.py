#!/usr/bin/env python3
"""Build nli/dev_c.jsonl: a hand-labelled NLI development set (third author).

Fictional company: Tessaline Industries (plants, warehouses, fleet, and the SaaS product
"Tessaline Flow"). All premises and hypotheses are hand-written Python literals below; this
script only numbers them, applies perturbation flips, builds order variants and writes JSONL.

    python nli/build_dev_c.py            # write dev_c.jsonl
    python nli/build_dev_c.py --check    # validate the written file
    python nli/build_dev_c.py --stats    # counts per slice and label
"""
import sys
from collections import OrderedDict
from pathlib import Path

import _devset  # the builders' shared writing, checks and command line (nli/_devset.py)

OUT = Path(__file__).with_name("dev_c.jsonl")
E, N, C = "entailment", "neutral", "contradiction"

# slice -> (id prefix, [(premise, [(hypothesis, label), ...]), ...])
SLICES = OrderedDict()

SLICES["numeric"] = ("num", [
    ("Tessaline Flow API - Rate limits\n"
     "Starter: 100 requests/min | Pro: 1,000 requests/min | Enterprise: 5,000 requests/min\n"
     "Requests above the limit are queued for up to 2 seconds before a 429 error is returned.",
     [("On the Pro plan you can make up to a thousand API calls per minute.", E),
      ("Enterprise customers get five times the request rate that Pro customers get.", E),
      ("Starter accounts are limited to 200 requests per minute.", C),
      ("An over-limit request can sit in the queue for as long as five seconds before you see a 429.", C),
      ("Pro customers can buy additional request capacity for $50 a month.", N)]),
    ("Data retention. Event logs are retained for 90 days on Starter and 13 months on Pro. Enterprise "
     "customers may configure retention anywhere between 30 days and 7 years. Deleted projects are "
     "recoverable for 14 days, after which they are purged permanently.",
     [("A deleted project can still be restored up to two weeks after you delete it.", E),
      ("On Enterprise, you can keep event logs for as long as seven years.", E),
      ("Pro plan event logs are kept for one year.", C),
      ("Enterprise customers can shorten retention to as little as a week.", C),
      ("Enterprise customers pay extra for retention longer than 13 months.", N)]),
    ("4.2 Meal allowance. Employees travelling overnight may claim up to EUR 45 per day for meals. "
     "Receipts are required for any single item above EUR 25.\n"
     "4.3 Mileage. Use of a private car on company business is reimbursed at EUR 0.30 per kilometre.",
     [("A 200 km business trip in your own car is reimbursed at EUR 60.", E),
      ("You need to keep the receipt for a EUR 32 dinner.", E),
      ("The daily meal cap for overnight trips is EUR 50.", C),
      ("Mileage in a company van is reimbursed at EUR 0.30 per kilometre.", N)]),
    ("Warranty terms - TX-400 series conveyor drives\n"
     "- Standard warranty: 24 months from the date of shipment.\n"
     "- Extended warranty: adds a further 12 months; must be purchased within 60 days of shipment.\n"
     "- Wear parts (belts, rollers) are covered for 6 months only.",
     [("With the extended warranty, a TX-400 drive is covered for three years from shipment.", E),
      ("Belts and rollers are under warranty for half a year.", E),
      ("You have 90 days after shipment to buy the extended warranty.", C),
      ("The extended warranty costs 8% of the drive's list price.", N)]),
    ("Q: What uptime does the Enterprise SLA guarantee?\n"
     "A: 99.95% monthly uptime. If uptime falls below that, you receive a 10% service credit; below "
     "99.0%, the credit rises to 25%. Credits are capped at 50% of the monthly fee.",
     [("If uptime drops under 99 percent, Enterprise customers are credited a quarter of the monthly fee.", E),
      ("No single month's service credit can exceed half of the monthly fee.", E),
      ("The Enterprise SLA commits to 99.9% monthly uptime.", C),
      ("The Pro plan SLA guarantees 99.9% monthly uptime.", N)]),
    ("Forklift operator certification is valid for three years. Refresher training takes 4 hours and "
     "must be completed before the certificate expires. Operators who fail the practical test may retake "
     "it after 7 days, with no more than two retakes in any 12-month period.",
     [("A forklift certificate stays valid for 36 months.", E),
      ("The refresher course lasts 240 minutes.", E),
      ("Operators can retake the practical test up to three times a year.", C),
      ("Operators who fail the practical test must repeat the classroom training before retaking it.", N)]),
    ("Free standard shipping applies to orders of $250 or more delivered within the contiguous US. "
     "Orders below $250 are charged a flat $18.50. Expedited shipping costs $42 per order regardless of "
     "order value.",
     [("A $300 order to Ohio ships with no standard shipping charge.", E),
      ("If you order $200 of parts with standard shipping, you'll pay $218.50 in total.", E),
      ("Standard shipping becomes free once your order reaches $200.", C),
      ("Expedited shipping is free on orders above $500.", C),
      ("Orders shipped to Alaska are charged a flat $18.50.", N)]),
    ("Pallet storage at the Rotterdam DC is billed at EUR 0.85 per pallet per day. The first 10 days "
     "after inbound receipt are free of charge. Pallets of hazardous goods are billed at double the "
     "standard rate.",
     [("Storing a hazardous pallet in Rotterdam costs EUR 1.70 per day once the free period is over.", E),
      ("Keeping one standard pallet in Rotterdam for 20 days after receipt costs EUR 17.", C),
      ("Storage at the Memphis DC is billed at EUR 0.85 per pallet per day.", N)]),
    ("Key rotation\n"
     "- API keys must be rotated at least every 90 days.\n"
     "- Service-account keys used by CI pipelines have a maximum lifetime of 30 days.\n"
     "- After rotation, the previous key remains valid for a 24-hour grace period.",
     [("Keys used by CI pipelines expire no later than 30 days after they are issued.", E),
      ("Once you rotate a key, the old one keeps working for one more day.", E),
      ("API keys have to be rotated at least every 180 days.", C),
      ("Enterprise customers can have the 24-hour grace period extended on request.", N)]),
    ("Shift rules - Brno plant\n"
     "Shifts are 8 hours long, including a paid 30-minute break. Overtime is capped at 10 hours per week "
     "and 150 hours per calendar year. Overtime hours are paid at 150% of the base rate.",
     [("At Brno you can't work more than ten hours of overtime in a week.", E),
      ("Overtime at the Brno plant is paid at time and a half.", E),
      ("Brno staff may work up to 200 overtime hours per year.", C),
      ("Overtime at Brno has to be approved in advance by the shift supervisor.", N),
      ("Brno employees receive a EUR 15 meal voucher for every shift.", N)]),
    ("Release 4.12\n"
     "- The bulk import endpoint now accepts files up to 250 MB (previously 100 MB).\n"
     "- The limit on custom fields per shipment record was raised from 50 to 75.\n"
     "- Failed webhook deliveries are retried five times with exponential backoff.",
     [("Since 4.12 a bulk import file can be two and a half times as large as before.", E),
      ("You can now define 25 more custom fields on a shipment record than you could before 4.12.", E),
      ("A failed webhook delivery is retried three times.", C),
      ("The first webhook retry happens after 10 seconds.", N)]),
    ("7.1 The Supplier shall deliver not less than 98% of order lines on time in each calendar quarter.\n"
     "7.2 If on-time delivery falls below 95% in any quarter, Tessaline may deduct 3% from that quarter's "
     "invoices.\n"
     "7.3 Payment terms are net 45 days from receipt of a valid invoice.",
     [("The supplier is paid within 45 days of Tessaline receiving a valid invoice.", E),
      ("If only 94% of order lines arrive on time in a quarter, Tessaline can take 3% off that quarter's invoices.", E),
      ("The contract sets the supplier's on-time delivery target at 95% of order lines per quarter.", C),
      ("At 96% on-time delivery in a quarter, Tessaline may deduct 3% from the invoices.", N),
      ("Invoices under this contract are payable on net 30 terms.", C)]),
])

SLICES["dates"] = ("date", [
    ("End-of-support schedule - Tessaline Flow Agent\n"
     "Agent 3.x: end of support 31 March 2027\n"
     "Agent 2.x: end of support 30 June 2026\n"
     "After end of support, agents keep running but receive no security patches.",
     [("Support for Agent 2.x ends at the close of Q2 2026.", E),
      ("Agent 3.x remains supported through the first quarter of 2027.", E),
      ("Agent 2.x is supported until 30 September 2026.", C),
      ("Once support ends, 2.x agents stop running.", C),
      ("Agent 4.x will be supported until 2029.", N)]),
    ("Holiday shutdown: the Leeds plant closes on Friday 18 December 2026 and reopens on Monday "
     "4 January 2027. Maintenance crews will be on site from 28 to 30 December.",
     [("The Leeds plant is closed on Christmas Day 2026.", E),
      ("Leeds reopens on the first Monday of 2027.", E),
      ("Leeds reopens on Tuesday 5 January 2027.", C),
      ("The Leeds shutdown starts on Thursday 17 December.", C),
      ("Maintenance crews are paid double time during the shutdown.", N)]),
    ("Returns. You may return unused items within 30 days of delivery for a full refund. Items returned "
     "between 31 and 60 days after delivery receive store credit only. Every return needs an RMA number "
     "issued by Customer Support.",
     [("An order delivered on 1 June 2026 can be returned for a full refund until 1 July 2026.", E),
      ("If you send an unused item back 45 days after delivery, you'll get store credit rather than your money back.", E),
      ("An item returned 40 days after delivery is refunded in full.", C),
      ("Items returned 90 days after delivery receive store credit.", N)]),
    ("Maintenance windows (eu-west), Q3 2026: Sundays 02:00-04:00 UTC. The next major upgrade is "
     "scheduled for Sunday 13 September 2026; customers are notified at least 14 days in advance.",
     [("Customers will hear about the September upgrade no later than 30 August 2026.", E),
      ("The major upgrade falls in the third quarter of 2026.", E),
      ("The eu-west maintenance windows fall on Saturdays.", C),
      ("The us-east region uses the same Sunday maintenance window.", N)]),
    ("Invoice disputes must be raised within 10 business days of the invoice date. Invoices are issued "
     "on the first business day of each month.",
     [("For an invoice dated Monday 2 November 2026, the last day to dispute it is Monday 16 November 2026.", E),
      ("An invoice will be issued on Thursday 1 October 2026.", E),
      ("Invoices go out on the last business day of the month.", C),
      ("For an invoice dated 2 November 2026, disputes are accepted until 20 November 2026.", C),
      ("Disputes raised after the deadline are rejected automatically.", N)]),
    ("Fiscal calendar. Tessaline's fiscal year runs from 1 October to 30 September; fiscal Q1 is "
     "October to December. Budget submissions for the next fiscal year are due by 15 July.",
     [("Fiscal Q2 covers January through March.", E),
      ("Budgets for the fiscal year that begins on 1 October 2026 are due by 15 July 2026.", E),
      ("Tessaline's fiscal year ends on 31 December.", C),
      ("Fiscal Q3 runs from July to September.", C),
      ("Budget submissions need the CFO's sign-off.", N)]),
    ("Release 5.0 becomes generally available on Tuesday 3 March 2026. The v1 REST API is deprecated "
     "in 5.0 and will be removed 12 months after general availability.",
     [("The v1 API is scheduled for removal in March 2027.", E),
      ("Release 5.0 ships on a Tuesday in the first quarter of 2026.", E),
      ("The v1 API will be removed six months after 5.0 goes GA.", C),
      ("Release 5.0 becomes generally available on Wednesday 3 March 2026.", C),
      ("The v2 API will be deprecated in 2028.", N)]),
    ("Lockout/tagout (LOTO) training must be completed before first access to energised equipment and "
     "repeated every year. The annual LOTO audit at each plant takes place in the second half of May.",
     [("Each plant's LOTO audit happens in the second calendar quarter.", E),
      ("LOTO training only needs to be refreshed every two years.", C),
      ("The LOTO audit is held in the first week of May.", C),
      ("The Monterrey LOTO audit is carried out by an external firm.", N)]),
    ("Postmortems. A postmortem is required for every Sev1 incident and must be published within "
     "5 business days of resolution.",
     [("For a Sev1 resolved on Friday 27 February 2026, the postmortem is due by Friday 6 March 2026.", E),
      ("A Sev1 resolved on Friday 27 February 2026 needs its postmortem published by Wednesday 4 March 2026.", C),
      ("Sev2 incidents need a postmortem within 10 business days.", N)]),
    ("Q: When does the annual price change take effect?\n"
     "A: List prices are reviewed once a year and new prices apply from 1 April. Customers on annual "
     "contracts keep their price until their next renewal date.",
     [("New list prices take effect at the start of the second calendar quarter.", E),
      ("If your annual contract renews in August, your price stays the same until then.", E),
      ("Annual-contract customers move to the new price on 1 April.", C),
      ("List prices will rise by 5% in 2026.", N)]),
])

SLICES["negation"] = ("neg", [
    ("Production floor - visitor rules\n"
     "- Safety glasses and hi-vis vests must be worn at all times.\n"
     "- Steel-toe boots are required only in Zones B and C.\n"
     "- Visitors are never permitted to operate machinery.",
     [("Visitors in Zone A don't have to wear steel-toe boots.", E),
      ("A visitor without safety glasses is not allowed on the production floor.", E),
      ("Visitors may operate a machine if a trained operator is standing beside them.", C),
      ("Hi-vis vests are optional for visitors.", C),
      ("Visitors must wear hearing protection in Zone C.", N)]),
    ("Single sign-on is not available on the Starter plan. Pro customers may enable SSO via SAML. SCIM "
     "provisioning is supported only on Enterprise.",
     [("You can't use SSO on the Starter plan.", E),
      ("Pro workspaces have no SCIM provisioning.", E),
      ("Pro customers are required to sign in through SSO.", N),
      ("SCIM provisioning works on the Pro plan.", C),
      ("Enterprise customers can use SAML SSO.", N)]),
    ("Hot work permits are mandatory for welding, grinding or cutting outside the designated workshops. "
     "A fire watch must remain in place for at least 30 minutes after hot work ends. Hot work is "
     "prohibited in the solvent store at all times.",
     [("Nobody may weld in the solvent store, permit or not.", E),
      ("You may grind in the solvent store as long as you hold a hot work permit.", C),
      ("Welding inside a designated workshop requires a hot work permit.", N),
      ("The fire watch may stand down as soon as the cutting is finished.", C)]),
    ("Customers are not required to give a reason when returning an item within 30 days. Opened "
     "software licences cannot be returned.",
     [("You don't have to explain why you're sending an item back in the first 30 days.", E),
      ("An opened software licence is non-returnable.", E),
      ("Returns within 30 days must include a reason.", C),
      ("Unopened software licences can be returned for a full refund.", N)]),
    ("3.4 Alcohol is not reimbursable, except at client dinners approved in advance by a director.\n"
     "3.5 First-class rail travel is not permitted.",
     [("Wine at a client dinner can be claimed if a director approved the dinner beforehand.", E),
      ("You cannot expense a first-class train ticket.", E),
      ("Alcohol is never reimbursable.", C),
      ("Drinks at a client dinner are reimbursable without prior approval.", C),
      ("Business-class flights are not permitted.", N)]),
    ("Configuration flag `legacy_auth`: deprecated in 4.10 and scheduled for removal in 5.0. The flag "
     "continues to work in all 4.x releases. Do not enable it on new deployments.",
     [("legacy_auth still works in version 4.11.", E),
      ("You shouldn't switch on legacy_auth for a new deployment.", E),
      ("legacy_auth stops working in 4.12.", C),
      ("legacy_auth was removed in 4.10.", C),
      ("legacy_auth is deprecated because it stores tokens in plain text.", N)]),
    ("On-call engineers must acknowledge a page within 15 minutes. Engineers may swap on-call shifts "
     "only if the team lead approves the swap in PagerDuty.",
     [("You can't swap an on-call shift without your team lead's approval.", E),
      ("If your team lead approves it in PagerDuty, you're allowed to swap your on-call shift.", N),
      ("On-call shift swaps don't need anyone's approval.", C),
      ("Acknowledging a page within 15 minutes is optional.", C)]),
    ("Fleet rules. Drivers must not exceed 9 hours of driving per day. Phones may be used only through a "
     "hands-free system. Drivers must not carry passengers unless they are Tessaline employees travelling "
     "on company business.",
     [("A driver can't take along a family member who doesn't work for Tessaline.", E),
      ("Drivers are not allowed to use a handheld phone.", E),
      ("Drivers are allowed to drive up to ten hours a day.", C),
      ("Drivers must take a 45-minute break after four and a half hours of driving.", N)]),
    ("Q: Is two-factor authentication mandatory?\n"
     "A: Yes, for all admin accounts. For standard users it is optional but strongly recommended.",
     [("Admins can't opt out of 2FA.", E),
      ("Two-factor authentication is recommended for ordinary users.", E),
      ("Standard users are required to enable two-factor authentication.", C),
      ("Admins must use a hardware security key as their second factor.", N)]),
    ("Customer data may not be copied to personal devices. Exports containing personal data must be "
     "deleted within 30 days unless a legal hold applies.",
     [("It is not permitted to keep customer data on your personal laptop.", E),
      ("An export with personal data that is under a legal hold does not have to be deleted within 30 days.", E),
      ("Exports with personal data may be kept indefinitely.", C),
      ("Customer data may be copied to company phones.", N)]),
    ("Release 5.1 notes: Internet Explorer 11 is no longer supported. The desktop app for Windows 7 "
     "remains available but will not receive updates. Safari 15 and later are supported.",
     [("Tessaline Flow 5.1 does not support IE 11.", E),
      ("The Windows 7 desktop app can still be downloaded.", E),
      ("Windows 7 desktop users will keep getting updates in 5.1.", C),
      ("Safari 16 is not supported in 5.1.", C)]),
])

SLICES["entity"] = ("ent", [
    ("Carrier assignments 2026: inbound freight to the Monterrey plant is handled by FedEx Freight. "
     "Outbound EU shipments from the Rotterdam DC travel with DB Schenker, except parcels under 30 kg, "
     "which go with DHL Express.",
     [("DB Schenker carries outbound EU freight from Rotterdam.", E),
      ("A 12 kg parcel leaving Rotterdam for Germany goes with DHL Express.", E),
      ("Inbound freight to Monterrey is handled by DB Schenker.", C),
      ("Outbound shipments from the Memphis DC use FedEx Freight.", N)]),
    ("Data residency: EU customer data is stored in eu-west-1 (Ireland), with backups in eu-central-1 "
     "(Frankfurt). US customer data is stored in us-east-1, with backups in us-west-2.",
     [("Backups of EU customers' data are kept in Frankfurt.", E),
      ("EU customer data is primarily stored in Frankfurt.", C),
      ("Backups of US customer data are kept in us-east-1.", C),
      ("Australian customers' data is stored in ap-southeast-2.", N)]),
    ("Incident roles. The Incident Commander (IC) owns the response and decides when to escalate. The "
     "Communications Lead drafts customer status-page updates, which the IC approves before they are "
     "published. For Sev1 incidents the VP Engineering is paged automatically.",
     [("Status-page updates are written by the Communications Lead and signed off by the IC.", E),
      ("The Communications Lead decides when an incident gets escalated.", C),
      ("Status-page updates also need the VP Engineering's approval.", N),
      ("The Communications Lead can publish a status update without the IC's sign-off.", C),
      ("The CTO is paged automatically for Sev1 incidents.", N)]),
    ("Maintenance work orders at all plants are raised in IBM Maximo. Spare parts are ordered through "
     "SAP Ariba, and orders above EUR 5,000 are approved by the plant's maintenance manager.",
     [("A work order at the Gdansk plant is created in Maximo.", E),
      ("Spare parts are ordered through Coupa.", C),
      ("A EUR 7,000 spare-parts order can be approved by the plant manager instead.", C),
      ("Spare-part orders above EUR 5,000 need sign-off from both the maintenance manager and Finance.", N)]),
    ("Team ownership: the Platform team owns the ingestion pipeline and the public API gateway. The "
     "Insights team owns dashboards and scheduled reports. Billing belongs to Revenue Engineering.",
     [("Scheduled reports are the Insights team's responsibility.", E),
      ("The public API gateway is owned by the Insights team.", C),
      ("Billing is looked after by the Platform team.", C),
      ("The Platform team also owns the mobile app.", N)]),
    ("Plant capabilities: Brno manufactures TX-400 conveyor drives and control cabinets. Gdansk makes "
     "the TX-200 series. Monterrey assembles TX-400 drives for the Americas from kits shipped from Brno.",
     [("TX-200 units are built in Gdansk.", E),
      ("The kits Monterrey assembles are shipped from Brno.", E),
      ("Monterrey's TX-400 kits come from Gdansk.", C),
      ("The Leeds plant makes control cabinets.", N)]),
    ("Key management. Customer encryption keys are held in AWS KMS. Internal secrets such as database "
     "passwords and API tokens are kept in HashiCorp Vault. Rotation of Vault secrets is owned by the "
     "Security Engineering team.",
     [("Database passwords live in Vault.", E),
      ("Customer encryption keys are stored in HashiCorp Vault.", C),
      ("The SRE team is responsible for rotating Vault secrets.", C),
      ("Vault secrets are rotated every 60 days.", N)]),
    ("Returns processing: RMA numbers are issued by Customer Support. Returned goods from European "
     "customers are sent to the Rotterdam DC; returns from North America go to the Memphis DC.",
     [("A customer in Toronto ships returns to Memphis.", E),
      ("Your account manager issues the RMA number.", C),
      ("A customer in Lyon sends returns to the Memphis DC.", C),
      ("Returns from Asia go to the Rotterdam DC.", N)]),
])

SLICES["multi_passage"] = ("multi", [
    ("Supplier register extract: Kovar Metals - Strategic. Lindqvist Plastics - Preferred. Ostrava "
     "Fasteners - Transactional.\n\n"
     "Supplier reviews. Strategic suppliers must undergo an on-site quality audit every 12 months. "
     "Preferred suppliers complete a self-assessment questionnaire every 24 months. Transactional "
     "suppliers have no recurring review.",
     [("Kovar Metals has to be audited on site once a year.", E),
      ("Lindqvist Plastics fills in a self-assessment every two years.", E),
      ("Ostrava Fasteners must complete a self-assessment questionnaire every 24 months.", C),
      ("Lindqvist Plastics must also be audited on site every year.", N)]),
    ("Dangerous goods classes held at the Memphis DC: lithium-ion batteries are Class 9; aerosol paints "
     "are Class 2 (gases).\n\n"
     "Warehouse storage rule 6: Class 9 goods are stored in Bay H only and must not be stacked more than "
     "two pallets high. Class 2 goods are stored in the caged area of Bay F.",
     [("At Memphis, pallets of lithium-ion batteries can be stacked at most two high.", E),
      ("Aerosol paints belong in the cage in Bay F.", E),
      ("Lithium-ion batteries may be stored in Bay F.", C),
      ("Aerosol paints must not be stacked more than two pallets high.", N)]),
    ("Severity definitions. Sev1: full outage of Tessaline Flow, or data loss for any customer. Sev2: a "
     "major feature (dashboards, alerts or the API) unavailable for more than 25% of customers. Sev3: "
     "degraded performance.\n\n"
     "Response targets. Sev1 - IC assigned within 10 minutes; status page updated every 30 minutes. "
     "Sev2 - IC assigned within 30 minutes; updates every 2 hours. Sev3 - handled in business hours.",
     [("If a customer loses data, an Incident Commander has to be assigned within ten minutes.", E),
      ("When dashboards are down for 40% of customers, the status page is updated every two hours.", E),
      ("A full outage of Tessaline Flow is handled during business hours.", C),
      ("When alerts fail for a third of customers, an IC must be in place within 10 minutes.", C),
      ("Degraded performance requires status-page updates every two hours.", N)]),
    ("Job grades: team leads and shift supervisors are grade G5; plant managers and directors are "
     "grade G7.\n\n"
     "Travel class: employees at G7 and above may book business class on flights longer than 6 hours. "
     "All other flights are booked in economy.",
     [("A plant manager on a nine-hour flight may fly business class.", E),
      ("A shift supervisor on an 8-hour flight to Monterrey flies economy.", E),
      ("Team leads can book business class on flights of more than six hours.", C),
      ("Directors must fly business class on flights longer than 6 hours.", N),
      ("A director on a four-hour flight can book business class.", C)]),
    ("Release channels: Enterprise workspaces are on the Stable channel. Pro and Starter workspaces are "
     "on the Fast channel.\n\n"
     "The Fast channel receives each release on the day it ships. The Stable channel receives a release "
     "21 days later, after it has run on the Fast channel.",
     [("Pro customers get new releases the day they ship.", E),
      ("Enterprise customers receive each release three weeks after it ships.", E),
      ("Starter workspaces get releases 21 days after they ship.", C),
      ("Enterprise customers can opt into the Fast channel.", N)]),
    ("Spares classification: gearboxes and motors are critical spares. Belts and fuses are "
     "consumables.\n\n"
     "Critical spares must be kept at a minimum stock of 2 units per plant, and may be transferred "
     "between plants only with the regional operations manager's approval.",
     [("Every plant has to keep at least two motors in stock.", E),
      ("Moving a gearbox from Brno to Gdansk needs the regional operations manager's approval.", E),
      ("Belts must be kept at a minimum stock of two per plant.", N),
      ("A plant manager can approve sending a motor to another plant on their own.", C),
      ("Each plant must keep at least three gearboxes on hand.", C),
      ("Fuses can be moved between plants without anyone's approval.", N)]),
    ("Customer account map: Halvorsen Logistics - Enterprise plan, region eu-west-1. Ridgeway Foods - "
     "Pro plan, region us-east-1.\n\n"
     "Customer-managed encryption keys (BYOK) are available only on the Enterprise plan. Regional "
     "failover is offered in eu-west-1 and ap-southeast-2.",
     [("Halvorsen Logistics can use its own encryption keys.", E),
      ("Ridgeway Foods cannot bring its own encryption keys.", E),
      ("Regional failover is offered in Halvorsen Logistics' region.", E),
      ("Ridgeway Foods has regional failover.", N),
      ("BYOK is available to Ridgeway Foods.", C)]),
    ("Chemicals register, Leeds plant: isopropyl alcohol (flammable); sodium hydroxide (corrosive).\n\n"
     "PPE matrix. Corrosives: chemical goggles, nitrile gloves and an apron. Flammables: flame-resistant "
     "coat; no eye protection beyond standard safety glasses is needed.",
     [("Handling sodium hydroxide at Leeds requires chemical goggles.", E),
      ("At Leeds you wear a flame-resistant coat when handling isopropyl alcohol.", E),
      ("Isopropyl alcohol must be handled with chemical goggles.", C),
      ("Sodium hydroxide must be stored in a ventilated cabinet.", N),
      ("Nitrile gloves are required when handling isopropyl alcohol at Leeds.", N)]),
    ("On-call rota, week 12 (Monday 16 to Sunday 22 March 2026): Platform primary - Anika Sorensen; "
     "Platform secondary - Joel Mbeki.\n\n"
     "Escalation policy: if the primary does not acknowledge a page within 15 minutes, it escalates to "
     "the secondary; after a further 15 minutes without acknowledgement, to the engineering manager.",
     [("In week 12, a Platform page Anika doesn't acknowledge goes to Joel Mbeki after 15 minutes.", E),
      ("On Wednesday 18 March 2026, a Platform page that neither Anika Sorensen nor Joel Mbeki acknowledges reaches the engineering manager 30 minutes after it fires.", E),
      ("If Anika misses a page in week 12, it goes straight to the engineering manager after 15 minutes.", C),
      ("Joel Mbeki is the Platform primary on Friday 20 March 2026.", C)]),
])

SLICES["paraphrase"] = ("para", [
    ("Goods damaged in transit must be reported within 48 hours of delivery, with photos of both the "
     "packaging and the item. Claims reported later are reviewed at Tessaline's discretion.",
     [("If your shipment arrives damaged, tell us within two days and send pictures of the box as well as the product.", E),
      ("Damage reports made after the deadline are always rejected.", C),
      ("Transit damage has to be reported within 48 hours so that Tessaline can claim against the carrier.", N)]),
    ("Access badges are deactivated automatically on an employee's last working day. Managers are "
     "responsible for collecting the physical badge.",
     [("Collecting the card is down to the line manager, while the badge itself stops working on the leaver's final day.", E),
      ("HR collects badges from people who are leaving.", C),
      ("Badges are switched off a week after the employee's last day.", C)]),
    ("Before servicing any conveyor, isolate all energy sources, apply your personal lock and tag, and "
     "verify zero energy by attempting a start.",
     [("Anyone working on a conveyor must first cut it off from every power source, put their own lock and tag on it, and try to start it to prove it is dead.", E),
      ("Conveyor servicing requires a supervisor's sign-off once zero energy has been verified.", N)]),
    ("The Pro plan includes 10 user seats; additional seats are billed at $15 per seat per month. "
     "Annual billing gives a 15% discount on the plan price but not on additional seats.",
     [("Extra Pro seats cost $15 each a month, and paying annually doesn't make them cheaper.", E),
      ("Paying annually takes 15% off both the plan and any extra seats.", C),
      ("Ten users are covered by a Pro subscription without extra seat charges.", E)]),
    ("Shipments that clear customs after 14:00 local time are dispatched on the next business day.",
     [("If customs clears your shipment at half past three in the afternoon, it leaves the following business day.", E),
      ("Goods cleared by customs at 11:00 are dispatched the same day.", N)]),
    ("Webhook payloads are signed with HMAC-SHA256 using your endpoint's signing secret. Reject any "
     "request whose signature header does not match.",
     [("You should check each webhook's signature with the endpoint secret and throw away any that don't match.", E),
      ("Webhook payloads are encrypted with your signing secret.", N),
      ("Webhooks are signed with an RSA key pair.", C)]),
    ("New hires cannot operate forklifts until they have completed certification, which includes 6 hours "
     "of classroom training and a practical test.",
     [("Forklift certification, which every new starter needs before driving one, consists of six hours in a classroom plus a practical exam.", E),
      ("New hires may drive forklifts under supervision before they are certified.", C),
      ("The practical test is taken on a reach truck.", N)]),
    ("Refunds are issued to the original payment method within 10 business days after the returned goods "
     "have been inspected.",
     [("Once your return has been checked, the money goes back to the card or account you paid with within ten working days.", E),
      ("Refunds are issued as store credit.", C),
      ("You get your refund within ten business days of posting the goods back.", C)]),
    ("Quarterly business reviews are offered to Enterprise customers. Pro customers can request one review "
     "a year through their account manager.",
     [("Enterprise customers are offered a QBR every quarter, while Pro customers may ask their account manager for a yearly review.", E),
      ("Pro customers receive a business review every quarter.", C),
      ("Starter customers can request an annual review.", N)]),
    ("Scrap metal from the Gdansk plant is collected weekly by Baltic Recycling, which pays Tessaline per "
     "tonne collected.",
     [("Baltic Recycling picks up Gdansk's scrap once a week and pays for it by weight.", E),
      ("Tessaline pays Baltic Recycling to take away its scrap metal.", C),
      ("Baltic Recycling collects the scrap every two weeks.", C)]),
    ("Tessaline Flow sends an email alert when a shipment's ETA slips by more than 4 hours. Alerts can be "
     "routed to Slack or Microsoft Teams from the Notifications page.",
     [("If an ETA moves back by more than four hours, you'll get an email, and these alerts can be pushed to Slack or Teams through the Notifications page.", E),
      ("You are alerted whenever a shipment's ETA changes.", C),
      ("ETA alerts can also be sent by SMS.", N)]),
    ("Employees who relocate at the company's request receive a relocation allowance of one month's "
     "salary. The allowance must be repaid in full if the employee resigns within 12 months of the move.",
     [("Someone who quits within a year of a company-requested move has to give back the whole relocation allowance.", E),
      ("The relocation allowance is repaid pro rata if you resign within a year.", C),
      ("Employees who relocate for personal reasons receive the allowance too.", N)]),
])

SLICES["distractor"] = ("dist", [
    ("Exports. CSV and XLSX exports from Tessaline Flow are limited to 100,000 rows. Larger exports must "
     "be run as scheduled jobs, which deliver a download link by email.",
     [("JSON exports are limited to 50,000 rows.", N),
      ("Download links from scheduled exports expire after seven days.", N),
      ("If you need more than 100,000 rows, set up a scheduled export and you'll be emailed a link.", E)]),
    ("Forklift pre-use inspection: check forks, chains, hydraulic hoses, horn, lights and brakes at the "
     "start of every shift, and record the results in the Maximo checklist.",
     [("Forklift batteries may only be charged in the designated charging room.", N),
      ("A forklift that fails inspection must be tagged out and reported to the shift supervisor.", N),
      ("You should test a forklift's horn and lights when your shift begins.", E)]),
    ("Travel booking. All flights must be booked through Navan, at least 14 days before departure where "
     "possible.",
     [("Hotel stays in Europe are capped at EUR 180 per night.", N),
      ("Rail tickets should be booked through Trainline.", N)]),
    ("Vulnerability management: Severity 2 vulnerabilities in internet-facing services must be patched "
     "within 14 days of disclosure.",
     [("Severity 1 vulnerabilities must be patched within 72 hours.", N),
      ("Internal-only services have 30 days to patch a Severity 2 vulnerability.", N),
      ("Internet-facing systems get two weeks to fix a Sev2 vulnerability.", E)]),
    ("Warranty claims are submitted through the partner portal with the unit's serial number and a "
     "description of the fault.",
     [("Warranty repairs are completed within 15 business days.", N),
      ("Labour costs are covered by the warranty in the first year.", N)]),
    ("Parking at the Dayton plant: staff park in Lot C; visitor parking is in Lot A next to reception.",
     [("Electric-vehicle chargers are located in Lot B.", N),
      ("Visitors to Dayton park in Lot A, by reception.", E)]),
    ("Release 4.9: audit logs can now be exported to Amazon S3 in Parquet format.",
     [("Audit logs are kept for 400 days.", N),
      ("Exporting audit logs to Azure Blob Storage is planned for 5.0.", N)]),
    ("Supplier onboarding: new suppliers must provide an ISO 9001 certificate and proof of insurance "
     "before their first purchase order is issued.",
     [("Supplier invoices are paid on net 60 terms.", N),
      ("New suppliers must pass a credit check before onboarding.", N),
      ("A supplier that hasn't shown proof of insurance can't be issued its first PO.", E)]),
    ("Shift handover: outgoing shift leads must brief incoming leads in person and log open issues in the "
     "handover book.",
     [("Shift leads must arrive 15 minutes early for the handover.", N),
      ("Open issues are written in the handover book when shifts change.", E)]),
    ("Q: Can I change my plan mid-cycle?\n"
     "A: Upgrades take effect immediately and are prorated for the rest of the billing cycle.",
     [("Downgrades take effect at the end of the billing cycle.", N),
      ("Customers can cancel at any time without penalty.", N)]),
])

SLICES["added_specifics"] = ("spec", [
    ("Customers can request a copy of their data at any time by contacting Support.",
     [("You can get a copy of your data by contacting Support, and it will be delivered within 30 days.", N),
      ("Support will send your data as a ZIP archive.", N),
      ("You may ask Support for a copy of your data whenever you like.", E)]),
    ("The Leeds plant holds a fire drill twice a year.",
     [("Fire drills at Leeds take place in April and October.", N),
      ("Leeds runs two fire drills annually.", E),
      ("Fire drills at Leeds are unannounced.", N)]),
    ("Enterprise customers have a named technical account manager.",
     [("Enterprise customers have a named TAM based in their own region.", N),
      ("Every Enterprise customer gets a TAM who is reachable around the clock.", N),
      ("Enterprise accounts come with a named technical account manager.", E)]),
    ("Tessaline may withhold supplier payments if the supplier fails a quality audit.",
     [("Payments are withheld after a failed audit because it signals a risk of defective parts.", N),
      ("Payments can be withheld for up to 90 days after a failed audit.", N),
      ("A failed quality audit can lead to supplier payments being held back.", E)]),
    ("Tessaline Flow supports SAML single sign-on with Okta and Azure AD.",
     [("You can use Okta for SAML SSO with Tessaline Flow.", E),
      ("SAML SSO with Okta is included at no extra charge.", N),
      ("SSO can be set up with Okta, Azure AD or Google Workspace.", N)]),
    ("Damaged pallets must be quarantined in the inbound area and reported to the shift supervisor.",
     [("Damaged pallets must be quarantined and reported to the shift supervisor within one hour.", N),
      ("If a pallet arrives damaged, set it aside in the inbound area and tell the shift supervisor.", E),
      ("Damaged pallets at the Memphis DC are quarantined in Bay D.", N)]),
    ("The v2 API supports cursor-based pagination.",
     [("The v2 API supports cursor-based pagination with up to 500 results per page.", N),
      ("Cursor pagination has been available since release 4.0.", N)]),
    ("Employees who work from home may claim a monthly internet allowance.",
     [("Home-working employees may claim a EUR 30 monthly internet allowance.", N),
      ("Remote workers can claim an internet allowance every month.", E),
      ("Employees in Poland who work from home may claim an internet allowance once their manager approves.", N)]),
    ("Customer-facing status updates are posted on status.tessaline.io during incidents.",
     [("During an incident, status updates are posted at status.tessaline.io every 30 minutes.", N),
      ("Customers can follow incidents on status.tessaline.io.", E)]),
])

L_PLANS = (
    "Tessaline Flow plans and limits (effective 1 January 2026)\n"
    "Tessaline Flow is sold in three tiers. Starter is intended for single-site teams and includes 3 user "
    "seats, one connected warehouse and email support with a response target of two business days. Starter "
    "workspaces can track up to 500 active shipments at a time. Pro adds multi-site visibility: it includes "
    "10 user seats, up to 15 connected warehouses and 10,000 active shipments, with email and chat support "
    "during business hours. Pro customers can connect carrier APIs directly, whereas Starter customers "
    "upload carrier data by CSV. The Pro plan costs $1,200 per month, or $12,240 per year when billed "
    "annually, and additional seats are $15 per seat per month. Enterprise is priced by quote. It includes "
    "unlimited warehouses, a named technical account manager, 24/7 phone support for Sev1 issues and a "
    "99.95% uptime SLA. Enterprise customers can also choose the region where their data is stored: "
    "eu-west-1, us-east-1 or ap-southeast-2. All plans include the mobile app, the public REST API and "
    "webhooks. Custom fields are limited to 25 per record on Starter and 75 on Pro and Enterprise. Plan "
    "changes: upgrades take effect immediately and are prorated; downgrades take effect at the next "
    "renewal, and any data above the lower plan's limits becomes read-only rather than being deleted. "
    "Trials last 21 days and include Pro features, but are limited to 3 seats. A workspace that does not "
    "convert at the end of its trial is suspended for 30 days and then deleted. Non-profit organisations "
    "receive a 20% discount on Starter and Pro. Prices exclude VAT and sales tax, which are added at "
    "checkout according to the billing address. Annual contracts can be cancelled with 30 days' notice before "
    "renewal; monthly plans can be cancelled at any time from the Billing page.")

L_TRAFFIC = (
    "Section 5 - Traffic management in Tessaline warehouses\n"
    "All Tessaline warehouses separate pedestrians from powered equipment wherever the layout allows. "
    "Pedestrian walkways are marked in green and must be used at all times; crossing a forklift aisle is "
    "allowed only at a marked zebra crossing. Visitors must be escorted by a badge-holding employee "
    "throughout their visit and must wear a hi-vis vest, safety glasses and safety shoes. The speed limit "
    "for forklifts and reach trucks is 10 km/h in open areas and 5 km/h inside racking aisles and in "
    "loading docks. Operators must sound the horn at blind corners and at every aisle end, and must travel "
    "in reverse when the load blocks their forward view. Pallets may be stacked no more than three high in "
    "block storage, and no pallet heavier than 1,000 kg may be placed on rack level 3 or above. Damaged "
    "racking must be reported immediately; a rack with a bent upright is unloaded within 24 hours and stays "
    "out of use until a rack inspector has signed it off. Battery charging is permitted only in the "
    "ventilated charging room, and eating or drinking there is prohibited. Mobile phones may not be used "
    "while operating equipment, even through a headset; operators must stop and apply the parking brake "
    "before taking a call. Near misses are reported through the Maximo safety module within the same "
    "shift. Each warehouse holds a monthly toolbox talk, and attendance is mandatory for all operators. "
    "Any operator involved in a collision must stop work and take a drug and alcohol test before returning "
    "to duty, regardless of who was at fault. Supervisors review the traffic plan of their area every "
    "quarter and after any layout change, and record the review in Maximo.")

L_TRAVEL = (
    "Tessaline Industries - Travel and Expense Policy (v7, 2026), section 2\n"
    "Business travel must be approved in Navan by the traveller's line manager before any booking is made. "
    "Trips outside the traveller's home region also need approval from the department head. Flights are "
    "booked in economy, except that employees at grade G7 and above may book business class on flights "
    "scheduled for longer than 6 hours. Rail is preferred over air for journeys under 4 hours. Hotel rates "
    "are capped at EUR 160 per night in most European cities and EUR 220 in London, Paris and Zurich; in the "
    "United States the cap is USD 250. Employees travelling overnight may claim meals up to EUR 45 per day "
    "within Europe and USD 60 per day in the United States; on the day of departure and on the day of "
    "return, the allowance is half the daily amount. Alcohol is not reimbursable, except at client dinners "
    "approved in advance by a director. Taxis are reimbursed when no reasonable public transport is "
    "available or when travelling between 22:00 and 06:00. Private car use is reimbursed at EUR 0.30 per "
    "kilometre, and parking and tolls are reimbursed in addition. Expense claims must be submitted in Concur "
    "within 30 days of the end of the trip, with itemised receipts for any item above EUR 25. Claims "
    "submitted after 90 days are not reimbursed. Corporate cards may be used only for business expenses; "
    "personal charges must be repaid within 10 days. Travel insurance is provided automatically for all "
    "approved trips and covers medical costs abroad, lost baggage and cancellation. Questions about this "
    "section go to the Travel desk in Brno, which also handles visa letters. Exceptions to this section need "
    "written approval from the CFO.")

L_SIR = (
    "Security Incident Response Runbook - SIR-02 (rev. 4)\n"
    "This runbook applies to suspected security incidents affecting Tessaline Flow or internal systems. "
    "Anyone who suspects an incident must report it in the #sec-incident Slack channel or by calling the "
    "security hotline, and must not investigate on their own. The on-call security engineer triages every "
    "report within 30 minutes and assigns a severity. S1 covers confirmed access to customer data or "
    "production credentials; S2 covers a compromised employee account without customer-data access; S3 "
    "covers malware contained on a single endpoint; S4 covers policy violations with no evidence of "
    "compromise. For S1 incidents, the CISO and the General Counsel are notified within one hour, and the "
    "decision to notify affected customers is taken jointly by the CISO and the General Counsel. "
    "Regulatory notification, where required, must be made within 72 hours of the incident being "
    "confirmed. Compromised credentials are revoked immediately; any API keys that may have been exposed "
    "are rotated within 4 hours, without waiting for the grace period that normally applies. Affected "
    "laptops are isolated through CrowdStrike and must not be powered off, so that memory can be collected. "
    "Evidence is stored in the restricted forensics bucket for seven years. Communication with customers "
    "goes only through the Communications Lead; engineers must not discuss the incident on public channels "
    "or with customers directly. S1 and S2 incidents require a blameless postmortem within 10 business days "
    "of closure, reviewed by the Security Review Board. The runbook is tested in a tabletop exercise every "
    "six months, and the results of each exercise are reported to the Audit Committee. Contractors have the "
    "same duty to report and are briefed on it during onboarding. Lessons learned from each postmortem are "
    "tracked as Jira tickets with an owner and a due date, and open items are reviewed at the monthly "
    "security meeting.")

L_MSA = (
    "Master Supply Agreement - Tessaline Industries / Kovar Metals s.r.o. - summary of key terms\n"
    "1. Scope. Kovar supplies machined steel housings for TX-400 drives to the Brno and Monterrey plants.\n"
    "2. Term. The agreement runs for three years from 1 February 2026 and then renews automatically for "
    "one-year periods unless either party gives 120 days' written notice.\n"
    "3. Forecasts. Tessaline shares a rolling 12-week forecast every Monday. The first 4 weeks of each "
    "forecast are treated as firm orders.\n"
    "4. Lead time. Standard lead time is 6 weeks from the purchase order; expedited orders are delivered "
    "in 3 weeks for a 10% surcharge.\n"
    "5. Price. Unit prices are fixed for the first 18 months of the term. After that, prices may be adjusted "
    "once every 12 months, by no more than the change in the Czech steel index, and any change needs 60 "
    "days' notice.\n"
    "6. Quality. The defect rate must not exceed 500 parts per million, measured per quarter. Defective "
    "parts are replaced at Kovar's cost within 10 business days.\n"
    "7. Delivery. Deliveries are DAP Tessaline plant (Incoterms 2020). On-time delivery must be at least 98% "
    "of order lines per quarter.\n"
    "8. Liability. Each party's total liability is capped at 150% of the fees paid in the previous 12 "
    "months, except for breaches of confidentiality.\n"
    "9. Termination. Either party may terminate for a material breach that is not cured within 30 days of "
    "written notice.\n"
    "10. Governing law. The agreement is governed by Czech law, and disputes go to arbitration in Vienna.\n"
    "11. Confidentiality. Both parties keep the terms of this agreement and all drawings confidential for "
    "five years after it ends.\n"
    "12. Notices. Notices must be in writing and sent to the addresses in Schedule 1; email is valid for "
    "operational notices only.\n"
    "13. Safety stock. Kovar holds at least two weeks of forecast demand as safety stock at its Ostrava "
    "warehouse.")

L_FAQ = (
    "Tessaline Parts Store - Returns and Warranty FAQ\n"
    "Q: How long do I have to return an item? A: Unused items in their original packaging can be returned "
    "within 30 days of delivery for a full refund. Between 31 and 60 days you receive store credit instead.\n"
    "Q: Do I need an RMA? A: Yes. Request an RMA number from Customer Support before shipping anything back; "
    "parcels without an RMA number are refused at the dock.\n"
    "Q: Who pays for return shipping? A: If the item was faulty or we sent the wrong part, we email you a "
    "prepaid label. For any other return, shipping is at your cost and a 15% restocking fee applies to items "
    "over $500.\n"
    "Q: Which items can't be returned? A: Custom-cut belts, opened software licences and items marked "
    "final sale.\n"
    "Q: How fast are refunds? A: Within 10 business days of inspection, to your original payment method.\n"
    "Q: What does the warranty cover? A: TX-400 and TX-200 drives carry a 24-month warranty from shipment "
    "covering defects in materials and workmanship. Wear parts are covered for 6 months. Damage caused by "
    "incorrect installation, overloading or unauthorised modification is not covered.\n"
    "Q: Can I get a replacement before I send the faulty unit back? A: Yes, advance replacement is "
    "available to customers with an Enterprise service contract; we ship the replacement within 2 business "
    "days and you return the faulty unit within 15 days.\n"
    "Q: Where do I send returns? A: European customers ship to the Rotterdam DC; North American customers "
    "ship to the Memphis DC.\n"
    "Q: Can I return a part bought through a distributor? A: No. Distributor purchases go back to the "
    "distributor, who handles the claim with us.\n"
    "Q: Do you accept returns from outside Europe and North America? A: Contact Customer Support, who will "
    "arrange a local return address where one exists.")

L_REL = (
    "Tessaline Flow 5.2 release notes (released Tuesday 14 April 2026)\n"
    "New\n"
    "- Yard management: dock-door scheduling is now available for Pro and Enterprise workspaces. Carriers "
    "can book slots through a public booking link.\n"
    "- Route ETA predictions now use live traffic data in the EU and the US. Predictions for all other "
    "regions still use historical averages.\n"
    "- The mobile app supports offline proof-of-delivery capture; photos sync when the device reconnects.\n"
    "Changed\n"
    "- The default session timeout is reduced from 12 hours to 8 hours. Admins on Enterprise can set the "
    "timeout anywhere between 1 and 24 hours; on other plans the timeout cannot be changed.\n"
    "- Bulk import now validates postal codes for 42 countries, up from 18.\n"
    "- The rate limit for the /shipments/search endpoint is lowered to 60 requests per minute per token, "
    "regardless of plan.\n"
    "Deprecated\n"
    "- The legacy_auth configuration flag will be removed in 5.4. Switch to OAuth client credentials "
    "before then.\n"
    "- XML webhook payloads are deprecated; JSON remains the default and will be the only format from 5.4.\n"
    "Fixed\n"
    "- Shipment timelines no longer show duplicate customs events.\n"
    "- Exports with more than 65,536 rows now open correctly in older spreadsheet applications.\n"
    "Known issues\n"
    "- Dock-door scheduling does not yet send calendar invites to Outlook accounts; a fix is expected in "
    "5.2.1.\n"
    "Upgrade notes\n"
    "- Self-hosted agents must be on version 3.4 or later to connect to 5.2. Agents on 3.2 and 3.3 keep "
    "sending data but cannot receive configuration changes.\n"
    "- Customers who pinned the 5.1 web client have until 30 June 2026 to move to 5.2; after that date the "
    "5.1 client is retired and users are redirected to 5.2 automatically when they sign in.")

L_SHIFT = (
    "Monterrey Plant - Shift and Attendance Rules (2026)\n"
    "The Monterrey plant runs three shifts, Monday to Saturday: morning 06:00-14:00, afternoon 14:00-22:00 "
    "and night 22:00-06:00. Sunday shifts are scheduled only in peak season and are voluntary. Each shift includes a paid 30-minute meal break and two unpaid 10-minute rest "
    "breaks. Employees must clock in with their badge no earlier than 15 minutes before their shift starts. "
    "Arriving more than 5 minutes late counts as a late arrival; three late arrivals in a rolling 60-day "
    "period lead to a written warning. Shift swaps between employees are allowed only if both are qualified "
    "for the station and the shift supervisor approves the swap in the scheduling system at least 24 hours "
    "in advance. Overtime must be approved by the production manager before it is worked and is capped at "
    "9 hours per week. Night-shift hours carry a premium of 20% on the base rate, and Sunday work is paid "
    "at double time. Employees may not work more than six consecutive days. Absence must be reported to the "
    "shift supervisor by phone at least one hour before the shift starts; messages passed on by coworkers "
    "are not accepted. Sick leave of more than two consecutive days requires a medical certificate. Annual "
    "leave requests for July and December must be submitted by 31 March, and the plant approves no more "
    "than 10% of each line's employees on leave at the same time. Employees who complete a full quarter "
    "with no unplanned absence receive a MXN 1,500 attendance bonus, paid with the first payroll of the "
    "following quarter. Questions about these rules go to the plant's HR business partner, who also keeps the "
    "attendance records. The rules are reviewed every January with the works council, and changes are posted "
    "on the notice boards two weeks before they take effect.")

SLICES["long_passage"] = ("long", [
    (L_PLANS,
     [("Paying for Pro annually saves $2,160 compared with twelve monthly payments.", E),
      ("Starter customers can connect carrier APIs directly.", C),
      ("After a downgrade, data above the new plan's limits is deleted at renewal.", C),
      ("A trial gives you Pro features for three weeks.", E),
      ("Non-profits get a 20% discount on Enterprise.", N)]),
    (L_TRAFFIC,
     [("Inside a loading dock, a forklift must not go faster than 5 km/h.", E),
      ("Operators may take a call on a headset while driving.", C),
      ("A 1,200 kg pallet may be put on rack level 4.", C),
      ("Racking is inspected by a rack inspector every six months.", N)]),
    (L_TRAVEL,
     [("On the day you fly home from an overnight trip to the US, you can claim up to USD 30 for meals.", E),
      ("A Zurich hotel can be booked at up to EUR 220 a night.", E),
      ("A claim submitted 60 days after the trip is not reimbursed.", N),
      ("For a trip outside your home region, the department head's approval is enough on its own.", C),
      ("A taxi ride at 23:30 is reimbursable.", E)]),
    (L_SIR,
     [("Whether to inform customers affected by an S1 incident is decided by the CISO alone.", C),
      ("A compromised employee account with no access to customer data is an S2 incident.", E),
      ("You should switch off a laptop you think has been compromised.", C),
      ("Where a regulator must be told, that has to happen within three days of the incident being confirmed.", E),
      ("S3 incidents require a postmortem within 10 business days.", N)]),
    (L_MSA,
     [("Kovar's unit prices cannot change before August 2027.", E),
      ("Once the fixed-price period ends, prices can be adjusted twice a year.", C),
      ("The initial term of the agreement ends on 31 January 2029.", E),
      ("Disputes under the agreement are decided by the Czech courts.", C),
      ("Kovar also supplies housings to the Gdansk plant.", N)]),
    (L_FAQ,
     [("Sending back an $800 gearbox you simply no longer need means paying the return postage and a $120 restocking fee.", E),
      ("A $300 item returned because you changed your mind incurs a 15% restocking fee.", N),
      ("Custom-cut belts can be returned within 30 days.", C),
      ("Damage caused by overloading a drive is covered by the warranty.", C),
      ("If you were sent the wrong part, you don't pay for shipping it back.", E)]),
    (L_REL,
     [("On the Pro plan the session timeout can't be changed.", E),
      ("Enterprise admins can set the session timeout to as long as a full day.", E),
      ("In Australia, route ETA predictions use live traffic data.", C),
      ("Starter workspaces can use dock-door scheduling.", N),
      ("Agents on version 3.3 stop sending data once 5.2 is out.", C)]),
    (L_SHIFT,
     [("A shift swap can be approved by the supervisor on the day of the shift.", C),
      ("Two qualified employees may swap shifts once the production manager signs off.", C),
      ("Hours worked on the night shift earn a 20% premium.", E),
      ("You may ask a coworker to tell your supervisor that you'll be absent.", C),
      ("A two-day sickness absence needs a medical certificate.", N),
      ("Clocking in at 05:40 for the morning shift is too early.", E)]),
])

# Perturbation groups. "sents" are the premise sentences (or passages when sep is "\n\n"), written to
# stand alone; the base pair is always entailment. Each flip is (field, old, new, label): `old` must occur
# exactly once in that field of the base pair. "order" gives the sentence order of the order variant
# (default: reversed).
PERT = [
    dict(sents=["Tessaline Flow Pro includes 10,000 active shipments.",
                "Pro support is available by email and chat during business hours.",
                "Pro workspaces can connect up to 15 warehouses."],
         hyp="On Pro you can link as many as fifteen warehouses.",
         flips=[("premise", "up to 15 warehouses", "up to 12 warehouses", C),
                ("hypothesis", "On Pro", "On Starter", N)]),
    dict(sents=["Lockout devices are removed by the person who applied them.",
                "If the person who applied a lockout device has left the site, its removal must be authorised by the maintenance manager.",
                "Every lockout removal that needs authorisation is logged in Maximo."],
         hyp="When the technician who fitted a lock has gone home, the maintenance manager has to authorise taking it off.",
         flips=[("premise", "the maintenance manager", "the shift supervisor", C),
                ("premise", "must be authorised", "may be authorised", N)]),
    dict(sents=["The Q3 inventory count at the Memphis DC takes place on Friday 25 September 2026.",
                "Inbound receiving at the Memphis DC is paused on the day of the Q3 inventory count.",
                "Outbound shipping from the Memphis DC continues as normal during the inventory count."],
         hyp="Memphis will not receive inbound deliveries on 25 September 2026.",
         flips=[("premise", "Friday 25 September 2026", "Friday 2 October 2026", N),
                ("hypothesis", "not receive inbound deliveries", "not ship outbound orders", C)]),
    dict(sents=["Customer Support handles Starter and Pro tickets by email and chat.",
                "Enterprise Sev1 tickets can also be raised by phone, 24 hours a day.",
                "Phone support is not available for Sev2 or lower tickets."],
         hyp="An Enterprise customer with a Sev1 issue at 3 a.m. can call support.",
         flips=[("hypothesis", "a Sev1 issue", "a Sev2 issue", C),
                ("premise", "Enterprise Sev1 tickets", "Pro Sev1 tickets", N)]),
    dict(sents=["Taxi fares are reimbursed when no reasonable public transport is available.",
                "Taxi fares are reimbursed for journeys between 22:00 and 06:00.",
                "Ride-share services count as taxis under this policy."],
         hyp="An Uber ride home at 23:00 can be expensed.",
         flips=[("premise", "between 22:00 and 06:00", "between 00:00 and 06:00", N),
                ("premise", "Ride-share services count as taxis under this policy.",
                 "Ride-share services do not count as taxis under this policy and are not reimbursed.", C)]),
    dict(sents=["API keys on the Enterprise plan can be scoped to a single project.",
                "Starter and Pro keys always have workspace-wide access.",
                "Scoped keys are created from the Developer settings page."],
         hyp="Pro customers cannot limit an API key to one project.",
         flips=[("premise", "Starter and Pro keys", "Starter keys", N),
                ("hypothesis", "Pro customers", "Enterprise customers", C)]),
    dict(sents=["Carrier invoices must be matched to a proof of delivery before payment.",
                "Carrier invoices above USD 10,000 are approved by the Logistics Director.",
                "Approved carrier invoices are paid in the next Thursday payment run."],
         hyp="A USD 14,000 carrier invoice needs the Logistics Director's approval.",
         flips=[("premise", "above USD 10,000", "above USD 15,000", N),
                ("hypothesis", "needs the Logistics Director's approval",
                 "can be approved by the Finance Manager instead of the Logistics Director", C)]),
    dict(sents=["Tessaline Flow 4.x reaches end of life on 31 October 2026.",
                "Security fixes for 4.x are provided until the end-of-life date.",
                "Customers on 4.x should plan their upgrade to 5.x before the end-of-life date."],
         hyp="Version 4.x will still get security fixes in September 2026.",
         flips=[("premise", "31 October 2026", "31 August 2026", C),
                ("hypothesis", "September 2026", "December 2026", C)]),
    dict(sents=["Contractors may not access the production database directly.",
                "Contractors query production data through the read-only reporting replica.",
                "Requests for replica access are approved by the data owner."],
         hyp="A contractor isn't allowed to connect straight to the production database.",
         flips=[("premise", "may not access", "may access", C),
                ("hypothesis", "connect straight to the production database", "query the reporting replica", C)]),
    dict(sents=["Parcel shipments from the Leeds plant are collected by DPD.",
                "Pallet shipments from the Leeds plant are collected by Palletways.",
                "Collections at the Leeds plant take place at 15:00 on weekdays."],
         hyp="Palletways picks up pallets from the Leeds plant.",
         flips=[("premise", "collected by Palletways", "collected by Hermes", C),
                ("hypothesis", "the Leeds plant", "the Dayton plant", N)]),
    dict(sents=["Tessaline Flow databases are backed up every 6 hours.",
                "Each database backup is kept for 35 days.",
                "Database backups are encrypted with AES-256."],
         hyp="Databases are backed up four times a day, and each backup is kept for five weeks.",
         flips=[("premise", "every 6 hours", "every 8 hours", C),
                ("premise", "kept for 35 days", "kept for 28 days", C)]),
    dict(sents=["Role catalogue: warehouse shift leads at Tessaline are classed as supervisors for safety purposes.",
                "Safety rule 12: supervisors must complete first-aid training every two years."],
         sep="\n\n",
         hyp="Warehouse shift leads have to redo their first-aid training every two years.",
         flips=[("premise", "every two years", "every three years", C),
                ("premise", "classed as supervisors", "classed as operators", N)]),
    dict(sents=["Subscription refund requests are handled by the Billing team.",
                "A customer who cancels mid-term receives no refund for the remaining months.",
                "A cancellation takes effect at the end of the current billing month."],
         hyp="If you cancel halfway through your term, you won't be refunded for the months that are left.",
         flips=[("premise", "receives no refund for", "receives a prorated refund for", C)]),
    dict(sents=["The Rotterdam DC accepts inbound container deliveries Monday to Friday.",
                "Container deliveries to Rotterdam must be booked at least 48 hours in advance.",
                "Saturday deliveries at Rotterdam are accepted only for refrigerated containers."],
         hyp="A non-refrigerated container cannot be delivered to Rotterdam on Saturday 7 November 2026.",
         flips=[("hypothesis", "on Saturday 7 November 2026", "on Friday 6 November 2026", C),
                ("premise", "accepted only for refrigerated containers", "accepted for all container types", C)]),
    dict(sents=["The Enterprise plan includes a 99.95% uptime SLA.",
                "SLA credits must be requested within 30 days of the end of the affected month.",
                "Approved SLA credits are applied to the next invoice."],
         hyp="To get an SLA credit, you have to ask for it no later than 30 days after the month in question ends.",
         flips=[("premise", "within 30 days", "within 60 days", C)]),
]


def build_rows():
    rows = []
    for slice_name, (prefix, items) in SLICES.items():
        n = 0
        for premise, hyps in items:
            for hyp, label in hyps:
                n += 1
                rows.append({"id": f"{prefix}-{n:03d}", "premise": premise, "hypothesis": hyp,
                             "label": label, "slice": slice_name})
    for g, grp in enumerate(PERT, 1):
        gid = f"pert-{g:03d}"
        sep = grp.get("sep", " ")
        sents = grp["sents"]
        base = {"premise": sep.join(sents), "hypothesis": grp["hyp"]}
        rows.append({"id": gid, **base, "label": E, "slice": "perturbation", "group": gid})
        for k, (field, old, new, label) in enumerate(grp["flips"], 1):
            assert base[field].count(old) == 1, (gid, old)
            var = dict(base)
            var[field] = base[field].replace(old, new)
            rows.append({"id": f"{gid}-f{k}", **var, "label": label, "slice": "perturbation",
                         "group": gid, "perturbation": "flip"})
        order = grp.get("order") or list(range(len(sents)))[::-1]
        rows.append({"id": f"{gid}-o", "premise": sep.join(sents[i] for i in order),
                     "hypothesis": grp["hyp"], "label": E, "slice": "perturbation",
                     "group": gid, "perturbation": "order"})
    return rows


if __name__ == "__main__":
    _prefix = {name: prefix for name, (prefix, _) in SLICES.items()}
    _prefix["perturbation"] = "pert"
    sys.exit(_devset.main(sys.argv[1:], OUT, build_rows, _prefix))
