"""How an issued letter cites the bundled law's provisions whose section numbers are
inferred: the number, then the subject and the mark in square brackets."""

A = "§ 202-5 A [Chapter 202, building permits; section number unconfirmed]"
C = "§ 202-5 C [Chapter 202, systems in failure; section number unconfirmed]"
D = ("§ 202-5 D [Chapter 202, systems within 200 feet of Canandaigua Lake; section number "
     "unconfirmed]")
E = "§ 202-5 E [Chapter 202, nothing to impact the absorption area; section number unconfirmed]"
HOLDING = "§ 202-8 B [Chapter 202, holding tanks; section number unconfirmed]"
NOTICE = "Chapter 202, Article IV [Chapter 202, notices of violation; section number unconfirmed]"
