Feature: Beacon Lines
  Seven regions, one simultaneous claim per faction per round from the start-of-round snapshot,
  permanent markers, strict-majority control, a win at 4 or more with a lead, three rounds at most.
  Source: 000_513e53902abb04a8.txt; rules: specs/beacon-lines.md.

  Background:
    Given a new Beacon Lines game

  @BL-MAP-1 @BL-MAP-4 @BL-CTRL-3
  Scenario: The board has exactly the seven regions, Homes owned and the rest neutral
    Then the board has exactly the regions: Red Home, Blue Home, North Pass, Crossroads, South Pass, Beacon, Depot
    And Red Home is controlled by Red
    And Blue Home is controlled by Blue
    And North Pass, Crossroads, South Pass, Beacon and Depot are neutral
    And the score is Red 1, Blue 1

  @BL-TURN-3 @BL-TURN-2
  Scenario: Opening targets
    Then Red may claim exactly: North Pass, Crossroads
    And Blue may claim exactly: Crossroads, South Pass

  @BL-TURN-3 @BL-MAP-2
  Scenario Outline: Beacon and Depot are not legal first claims
    When <faction> claims <region> and the other faction claims its own pass
    Then the claim is rejected with "illegal-target"
    And the state is unchanged

    Examples:
      | faction | region |
      | Red     | Beacon |
      | Red     | Depot  |
      | Blue    | Beacon |
      | Blue    | Depot  |

  @BL-CTRL-3 @BL-TURN-2
  Scenario Outline: A Home is never a target
    When <faction> claims <region> and the other faction claims its own pass
    Then the claim is rejected with "illegal-target"

    Examples:
      | faction | region    |
      | Red     | Blue Home |
      | Red     | Red Home  |
      | Blue    | Red Home  |

  @BL-MAP-2 @BL-MAP-3 @BL-TURN-2
  Scenario Outline: Holding a region opens exactly its neighbours in the next round
    When Red claims <red> and Blue claims <blue>
    Then Red may claim exactly: <red targets>
    And Blue may claim exactly: <blue targets>

    Examples:
      | red        | blue       | red targets                           | blue targets                           |
      | North Pass | South Pass | North Pass, Crossroads, Beacon, Depot | Crossroads, South Pass, Beacon, Depot  |
      | North Pass | Crossroads | North Pass, Crossroads, Beacon, Depot | Crossroads, South Pass, Beacon, Depot  |
      | Crossroads | South Pass | North Pass, Crossroads, Beacon, Depot | Crossroads, South Pass, Beacon, Depot  |
      | Crossroads | Crossroads | North Pass, Crossroads                | Crossroads, South Pass                 |

  @BL-MAP-3 @BL-MAP-2
  Scenario Outline: No two middle regions are adjacent
    When Red claims <red> and Blue claims <blue>
    And Red claims <red next> and Blue claims <blue next>
    Then the claim is rejected with "illegal-target"
    And the state is unchanged

    Examples:
      | red        | blue       | red next   | blue next  |
      | North Pass | Crossroads | Beacon     | North Pass |
      | Crossroads | South Pass | South Pass | Depot      |
      | North Pass | South Pass | Beacon     | North Pass |

  @BL-TURN-4
  Scenario: A faction makes exactly one claim per round
    When Red claims both North Pass and Beacon while Blue claims South Pass
    Then the claim is rejected with "one-claim-per-round"
    And the state is unchanged

  @BL-TURN-4
  Scenario: A faction that makes no claim holds up the round
    When only Red claims North Pass
    Then the claim is rejected with "missing-claim"
    And the state is unchanged

  @BL-TURN-4 @BL-TURN-1
  Scenario: A region claimed this round opens nothing until the next round
    Then Red may claim exactly: North Pass, Crossroads
    When Red claims North Pass and Blue claims South Pass
    Then Red may claim exactly: North Pass, Crossroads, Beacon, Depot

  @BL-TURN-1 @BL-TURN-5
  Scenario: Both claims are judged on the same start-of-round snapshot
    When Red claims Crossroads and Blue claims South Pass
    And Red claims Beacon and Blue claims Crossroads
    And Red claims South Pass and Blue claims Depot
    Then the claims were accepted
    And South Pass is neutral
    And Depot is controlled by Blue

  @BL-TURN-6 @BL-R1
  Scenario: An own region that touches none of the faction's others cannot be claimed again
    When Red claims Crossroads and Blue claims South Pass
    And Red claims Beacon and Blue claims Crossroads
    Then Beacon is controlled by Red
    And Red may claim exactly: North Pass, Crossroads, South Pass
    When Red claims Beacon and Blue claims Depot
    Then the claim is rejected with "illegal-target"

  @BL-TURN-5 @BL-CTRL-2 @BL-SCORE-1
  Scenario: Both factions claim the same region: one marker each, a tie, nobody scores it
    When Red claims Crossroads and Blue claims Crossroads
    Then Crossroads has 1 Red marker and 1 Blue marker
    And Crossroads is neutral
    And the score is Red 1, Blue 1

  @BL-CTRL-2 @BL-CTRL-1
  Scenario: A strict majority controls
    When Red claims Crossroads and Blue claims Crossroads
    And Red claims Crossroads and Blue claims South Pass
    Then Crossroads has 2 Red markers and 1 Blue marker
    And Crossroads is controlled by Red
    And the score is Red 2, Blue 2

  @BL-CTRL-2
  Scenario: One marker alone controls a region
    When Red claims North Pass and Blue claims South Pass
    Then North Pass is controlled by Red
    And South Pass is controlled by Blue
    And Crossroads, Beacon and Depot are neutral

  @BL-ROUTE-1
  Scenario: Round 1 of the worked route ends 2–2
    When Red claims North Pass and Blue claims South Pass
    Then the score is Red 2, Blue 2
    And the game goes on in round 2

  @BL-ROUTE-1 @BL-SCORE-2 @BL-WIN-1
  Scenario Outline: Round 2 of the worked route, Beacon worth 1 or 2
    Given a new Beacon Lines game under ruleset <ruleset>
    When Red claims North Pass and Blue claims South Pass
    And Red claims Beacon and Blue claims Depot
    Then the score is Red <red>, Blue <blue>
    And the result is <result>

    Examples:
      | ruleset | red | blue | result    |
      | v0      | 3   | 3    | none yet  |
      | v1      | 4   | 3    | Red wins  |

  @BL-ROUTE-2 @BL-WIN-2
  Scenario: The v0 route continues to round 3 and ends in a 2–2 draw
    Given a new Beacon Lines game under ruleset v0
    When Red claims North Pass and Blue claims South Pass
    And Red claims Beacon and Blue claims Depot
    And Red claims Depot and Blue claims Beacon
    Then Beacon, Depot and Crossroads are neutral
    And the score is Red 2, Blue 2
    And the result is a draw

  @BL-ROUTE-3 @BL-SCORE-1
  Scenario: The failed v1 route: ties on Depot and Beacon, no Beacon bonus, 2–2 draw
    Given a new Beacon Lines game under ruleset v1
    When Red claims North Pass and Blue claims South Pass
    And Red claims Depot and Blue claims Depot
    Then the score is Red 2, Blue 2
    When Red claims Beacon and Blue claims Beacon
    Then Beacon is neutral
    And the score is Red 2, Blue 2
    And the result is a draw

  @BL-WIN-2
  Scenario: After round 3 the higher score wins
    Given a new Beacon Lines game under ruleset v1
    When Red claims Crossroads and Blue claims South Pass
    And Red claims Beacon and Blue claims Crossroads
    And Red claims South Pass and Blue claims Depot
    Then the score is Red 3, Blue 2
    And the result is Red wins

  @BL-WIN-3
  Scenario: No claim is accepted once the game is over
    Given a new Beacon Lines game under ruleset v1
    When Red claims North Pass and Blue claims South Pass
    And Red claims Beacon and Blue claims Depot
    And Red claims Depot and Blue claims Beacon
    Then the claim is rejected with "game-over"
    And the state is unchanged

  @BL-RESTART-1 @BL-CTRL-1
  Scenario: Restart clears every non-Home marker and the opening script runs again
    Given a new Beacon Lines game under ruleset v0
    When Red claims North Pass and Blue claims South Pass
    And Red claims Beacon and Blue claims Depot
    And the game is restarted
    Then every non-Home region has no markers
    And the score is Red 1, Blue 1
    And the game goes on in round 1
    When Red claims North Pass and Blue claims South Pass
    Then the score is Red 2, Blue 2
