Feature: Lantern Quay
  Three d6 a round, one to each of Salvage, Forge and Install; brass and modules carry over;
  three rounds to light three lenses. Source: 001_06b993e4f8157fb3.txt; rules: specs/lantern-quay.md.

  Background:
    Given a new Lantern Quay game

  @LQ-START-1
  Scenario: The start state
    Then the stock is brass 1, modules 0, lenses 0
    And the game waits for the roll of round 1

  @LQ-SALV-1
  Scenario Outline: Salvage adds half the face, rounded up
    When the dice <face>, 1, 1 are placed Salvage <face>, Forge 1, Install 1
    Then the stock is brass <brass>, modules 0, lenses 0

    Examples:
      | face | brass |
      | 1    | 2     |
      | 2    | 2     |
      | 3    | 3     |
      | 4    | 3     |
      | 5    | 4     |
      | 6    | 4     |

  @LQ-FORGE-1 @LQ-FORGE-2
  Scenario Outline: Forge thresholds, with enough brass
    When the dice 6, <face>, 1 are placed Salvage 6, Forge <face>, Install 1
    Then the stock is brass <brass>, modules <modules>, lenses 0

    Examples:
      | face | brass | modules |
      | 1    | 4     | 0       |
      | 2    | 4     | 0       |
      | 3    | 2     | 1       |
      | 4    | 2     | 1       |
      | 5    | 1     | 2       |
      | 6    | 1     | 2       |

  @LQ-FORGE-3
  Scenario Outline: A Forge that cannot pay in full spends nothing and makes nothing
    When the dice 2, 4, 6 are placed Salvage 2, Forge 4, Install 6
    Then the stock is brass 0, modules 0, lenses 1
    When the dice 1, <face>, 1 are placed Salvage 1, Forge <face>, Install 1
    Then the stock is brass 1, modules 0, lenses 1

    Examples:
      | face |
      | 3    |
      | 4    |
      | 5    |
      | 6    |

  @LQ-FORGE-3
  Scenario: Short stock for the 3-brass Forge while the 2-brass one would be affordable
    When the dice 1, 5, 1 are placed Salvage 1, Forge 5, Install 1
    Then the stock is brass 2, modules 0, lenses 0

  @LQ-INST-1
  Scenario Outline: Install needs a 5 or 6 and a module
    When the dice 4, 6, 2 are placed Salvage 4, Forge 6, Install 2
    Then the stock is brass 0, modules 2, lenses 0
    When the dice 1, 1, <face> are placed Salvage 1, Forge 1, Install <face>
    Then the stock is brass 1, modules <modules>, lenses <lenses>

    Examples:
      | face | modules | lenses |
      | 1    | 2       | 0      |
      | 2    | 2       | 0      |
      | 3    | 2       | 0      |
      | 4    | 2       | 0      |
      | 5    | 1       | 1      |
      | 6    | 1       | 1      |

  @LQ-INST-1
  Scenario Outline: Install on 5 or 6 without a module does nothing
    When the dice 1, 1, <face> are placed Salvage 1, Forge 1, Install <face>
    Then the stock is brass 2, modules 0, lenses 0

    Examples:
      | face |
      | 5    |
      | 6    |

  @LQ-INST-2
  Scenario: One lens per round at most, however many modules are held
    When the dice 4, 6, 2 are placed Salvage 4, Forge 6, Install 2
    And the dice 1, 1, 6 are placed Salvage 1, Forge 1, Install 6
    Then the stock is brass 1, modules 1, lenses 1

  @LQ-PLACE-1
  Scenario: One die per slot, each die used once
    When the dice 3, 3, 5 are rolled
    And the 3 is placed on Forge
    And the 5 is placed on Forge
    Then the action is rejected with "slot-taken"
    When the 3 is placed on Salvage
    And the 3 is placed on Install
    Then the action is rejected with "no-such-die"
    And the state is unchanged

  @LQ-ROLL-1 @LQ-ROLL-2
  Scenario Outline: Rolls are three dice of 1 to 6, once a round
    When the roll <dice> is made
    Then the action is rejected with "<code>"
    And the state is unchanged

    Examples:
      | dice      | code             |
      | 2, 4      | wrong-dice-count |
      | 2, 4, 6, 1 | wrong-dice-count |
      | 0, 4, 6   | bad-face         |
      | 2, 4, 7   | bad-face         |

  @LQ-ROLL-2
  Scenario: No reroll, and no placement before the roll
    When the 2 is placed on Salvage
    Then the action is rejected with "wrong-phase"
    When the dice 2, 4, 6 are rolled
    And the roll 6, 6, 6 is made
    Then the action is rejected with "wrong-phase"
    And the state is unchanged

  @LQ-TIME-1
  Scenario Outline: Under v1 every physical order of the same assignment gives the same result
    Given a new Lantern Quay game under ruleset v1
    When the dice 2, 4, 6 are rolled
    And they are placed in the order <order>
    Then the stock is brass 0, modules 0, lenses 1

    Examples:
      | order                         |
      | Salvage 2, Forge 4, Install 6 |
      | Salvage 2, Install 6, Forge 4 |
      | Forge 4, Salvage 2, Install 6 |
      | Forge 4, Install 6, Salvage 2 |
      | Install 6, Salvage 2, Forge 4 |
      | Install 6, Forge 4, Salvage 2 |

  @LQ-TIME-2
  Scenario Outline: Under v0 each die resolves as it is placed, so the order matters
    Given a new Lantern Quay game under ruleset v0
    When the dice 2, 4, 6 are rolled
    And they are placed in the order <order>
    Then the stock is brass <brass>, modules <modules>, lenses <lenses>

    Examples:
      | order                         | brass | modules | lenses |
      | Salvage 2, Forge 4, Install 6 | 0     | 0       | 1      |
      | Salvage 2, Install 6, Forge 4 | 0     | 1       | 0      |
      | Forge 4, Salvage 2, Install 6 | 2     | 0       | 0      |
      | Forge 4, Install 6, Salvage 2 | 2     | 0       | 0      |
      | Install 6, Salvage 2, Forge 4 | 0     | 1       | 0      |
      | Install 6, Forge 4, Salvage 2 | 2     | 0       | 0      |

  @LQ-TIME-1
  Scenario: Under v1 nothing resolves until the third die is placed
    Given a new Lantern Quay game under ruleset v1
    When the dice 6, 5, 6 are rolled
    And the 6 is placed on Salvage
    And the 5 is placed on Forge
    Then the stock is brass 1, modules 0, lenses 0
    When the 6 is placed on Install
    Then the stock is brass 1, modules 1, lenses 1

  @LQ-ROUTE-1
  Scenario: [2,4,6] as Salvage 2, Forge 4, Install 6 lights a lens now
    When the dice 2, 4, 6 are placed Salvage 2, Forge 4, Install 6
    Then the stock is brass 0, modules 0, lenses 1

  @LQ-ROUTE-2
  Scenario: [2,4,6] as Salvage 4, Forge 6, Install 2 saves two modules
    When the dice 2, 4, 6 are placed Salvage 4, Forge 6, Install 2
    Then the stock is brass 0, modules 2, lenses 0

  @LQ-ROUTE-3
  Scenario Outline: The draft order Forge 4, Salvage 2, Install 6 under each ruleset
    Given a new Lantern Quay game under ruleset <ruleset>
    When the dice 2, 4, 6 are rolled
    And they are placed in the order Forge 4, Salvage 2, Install 6
    Then the stock is brass <brass>, modules <modules>, lenses <lenses>

    Examples:
      | ruleset | brass | modules | lenses |
      | v0      | 2     | 0       | 0      |
      | v1      | 0     | 0       | 1      |

  @LQ-CARRY-1
  Scenario: Brass and modules carry over; dice do not
    When the dice 4, 6, 2 are placed Salvage 4, Forge 6, Install 2
    Then the stock is brass 0, modules 2, lenses 0
    And the game waits for the roll of round 2
    And no dice are left from round 1

  @LQ-END-1
  Scenario: Three lenses by the end of round 3 is a restoration
    When the dice 2, 4, 6 are placed Salvage 2, Forge 4, Install 6
    And the dice 5, 6, 5 are placed Salvage 6, Forge 5, Install 5
    And the dice 1, 1, 6 are placed Salvage 1, Forge 1, Install 6
    Then the stock is brass 1, modules 0, lenses 3
    And the result is restored

  @LQ-END-1
  Scenario: Fewer than three lenses after round 3 is incomplete
    When the dice 2, 4, 6 are placed Salvage 2, Forge 4, Install 6
    And the dice 1, 1, 1 are placed Salvage 1, Forge 1, Install 1
    Then the result is none yet
    When the dice 6, 6, 6 are placed Salvage 6, Forge 6, Install 6
    Then the stock is brass 1, modules 1, lenses 2
    And the result is incomplete
    When the dice 6, 6, 6 are rolled
    Then the action is rejected with "game-over"

  @LQ-RESTART-1
  Scenario: Restart from the middle of the game
    When the dice 4, 6, 2 are placed Salvage 4, Forge 6, Install 2
    And the dice 3, 3, 1 are rolled
    And the 3 is placed on Salvage
    And the game is restarted
    Then the stock is brass 1, modules 0, lenses 0
    And the game waits for the roll of round 1

  @LQ-END-1 @LQ-INST-2 @kit
  Scenario Outline: The exact chance of a restoration, by playing every roll of the three rounds
    When the kit works out the chance of a restoration under <ruleset> with the dice placed <how>
    Then the game ends restored <restored> times in <rolls>

    Examples:
      | ruleset | how          | restored | rolls   |
      | v1      | the best way | 2236     | 19683   |
      | v1      | at random    | 74       | 6561    |
      | v0      | the best way | 2236     | 19683   |
      | v0      | at random    | 2851     | 4251528 |

  @LQ-ROUTE-3
  Scenario: Under the draft, the seed's order resolves die by die
    Given a new Lantern Quay game under ruleset v0
    When the dice 2, 4, 6 are rolled
    And the 4 is placed on Forge
    Then the stock is brass 1, modules 0, lenses 0
    When the 2 is placed on Salvage
    Then the stock is brass 2, modules 0, lenses 0
    When the 6 is placed on Install
    Then the stock is brass 2, modules 0, lenses 0
