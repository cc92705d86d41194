Feature: Black Fog and the Apple Trees (黒い霧とリンゴの木)
  Four keepers guide animals home through a hex forest while a black fog appears and spreads.
  Source: 002_10955d7b022d9327.txt (a draft); rules: specs/black-fog.md. Tiles are axial "q,r" with the
  house at 0,0; faces 1-6: up, upper right, lower right, down, lower left, upper left. Scenarios lay
  small explicit maps: every tile not listed is plain forest. Keepers not listed start at the house.

  @BF-MAP-1 @BF-MOVE-1
  Scenario: The map reaches six tiles out from the house and no further
    Given a Black Fog game with:
      | thing | where |
      | k1    | 0,-5  |
    When k1 moves to 0,-6
    Then the action is rejected with "off-map"
    When k1 moves to 1,-5
    Then k1 is at 1,-5

  @BF-MAP-2 @BF-MAP-3 @BF-MAP-4
  Scenario Outline: A seeded map: 3 apple trees in rings 2-5, n - 1 water tiles in ring n, never both
    Given a new Black Fog game with seed <seed>
    Then rings 2, 3, 4, 5 hold 3 apple trees each and none elsewhere
    And rings 2, 3, 4, 5, 6 hold 1, 2, 3, 4, 5 water tiles
    And no tile is both apple tree and water, and the house is neither

    Examples:
      | seed |
      | 1    |
      | 2    |
      | 99   |

  @BF-KEEP-1 @BF-ROUND-1
  Scenario: Four keepers; three phases a round; eight rounds
    Given a Black Fog game with:
      | thing | where |
      | round | 8     |
    Then the keepers are k1, k2, k3, k4
    And it is the action phase of round 8
    When the actions end
    Then the game is over

  @BF-KEEP-1
  Scenario: Four keepers whatever the set-up places; those it leaves out start at the house and play
    Given a Black Fog game with:
      | thing | where |
      | k1    | 2,-2  |
    Then the keepers are k1, k2, k3, k4
    And k2 is at 0,0
    When k3 moves to 0,-1
    Then k3 is at 0,-1

  @BF-ACT-1 @BF-ACT-2
  Scenario: Three main actions a keeper, repeats allowed; free actions after them
    Given a Black Fog game with:
      | thing    | where |
      | squirrel | 1,0   |
    When k1 feeds
    And k1 moves to 1,0
    And k1 moves to 0,0
    And k1 whistles
    Then the action is rejected with "no-actions-left"
    When k1 collects the feed
    Then there is no feed at 0,0
    When k2 moves to 1,0
    Then k2 is at 1,0

  @BF-WHISTLE-1
  Scenario: Whistling pulls every animal within 2 tiles one tile closer, even off feed
    Given a Black Fog game with:
      | thing    | where |
      | squirrel | 0,-2  |
      | deer     | 2,-1  |
      | bear     | 3,0   |
      | rabbit   | 1,0   |
      | feed     | 0,-2  |
    When k1 whistles
    Then a1 is at 0,-1
    And a2 is at 1,0
    And a3 is at 3,0
    And a4 is at 0,0

  @BF-R18
  Scenario: A whistle that moves no animal still uses one of the keeper's three main actions
    # The deer's one step toward k1 is the water on 0,-1, so it stays; the squirrel is out of reach.
    Given a Black Fog game with:
      | thing    | where |
      | water    | 0,-1  |
      | deer     | 0,-2  |
      | squirrel | 0,-4  |
    When k1 whistles
    And k1 whistles
    And k1 whistles
    Then a1 is at 0,-2
    And a2 is at 0,-4
    When k1 whistles
    Then the action is rejected with "no-actions-left"

  @BF-WHISTLE-2
  Scenario: Water between stops an animal; nothing moves onto a keeper standing on water, others still come
    Given a Black Fog game with:
      | thing    | where |
      | k1       | 0,0   |
      | water    | 0,-1  |
      | squirrel | 0,-2  |
      | deer     | 1,0   |
    When k1 whistles
    Then a1 is at 0,-2
    And a2 is at 0,0
    Given a Black Fog game with:
      | thing    | where |
      | k1       | 2,0   |
      | water    | 2,0   |
      | squirrel | 3,0   |
      | deer     | 2,-2  |
    When k1 whistles
    Then a1 is at 3,0
    And a2 is at 2,-1

  @BF-WHISTLE-3 @BF-FOG-4
  Scenario: Whistled through the fog, an animal is lost
    Given a Black Fog game with:
      | thing    | where |
      | fog      | 0,-1  |
      | squirrel | 0,-2  |
    When k1 whistles
    Then a1 is lost
    And the score counts 1 animal lost

  @BF-TAME-1
  Scenario Outline: Taming up to 3 cost: small 1, medium 2, large 3, several at once
    Given a Black Fog game with:
      | thing    | where |
      | squirrel | 0,0   |
      | rabbit   | 0,0   |
      | deer     | 0,0   |
      | bear     | 0,0   |
    When k1 tames <animals>
    Then the action is <outcome>

    Examples:
      | animals        | outcome                          |
      | a1 and a2      | accepted                         |
      | a1 and a3      | accepted                         |
      | a4             | accepted                         |
      | a1, a2 and a3  | rejected with "over-capacity"    |
      | a3 and a4      | rejected with "over-capacity"    |

  @BF-TAME-1
  Scenario: What a keeper already holds counts toward the 3
    Given a Black Fog game with:
      | thing    | where |
      | deer     | 0,0   |
      | rabbit   | 0,0   |
      | boar     | 0,0   |
    When k1 tames a1
    And k1 tames a3
    Then the action is rejected with "over-capacity"
    When k1 tames a2
    Then k1 carries a1 and a2

  @BF-MOVE-1
  Scenario: Never into fog; not onto water while holding animals; alone it may
    Given a Black Fog game with:
      | thing    | where |
      | fog      | 0,-1  |
      | water    | 1,0   |
      | squirrel | 0,0   |
    When k1 moves to 0,-1
    Then the action is rejected with "into-fog"
    When k2 moves to 1,0
    Then k2 is at 1,0
    When k1 tames a1
    And k1 moves to 1,0
    Then the action is rejected with "water-while-carrying"

  @BF-FEED-1 @BF-COLLECT-1
  Scenario: Feed goes on the keeper's tile, never on water; it can be collected
    Given a Black Fog game with:
      | thing | where |
      | k1    | 1,0   |
      | water | 1,0   |
    When k1 feeds
    Then the action is rejected with "feed-on-water"
    When k2 feeds
    Then there is feed at 0,0
    When k2 collects the feed
    Then there is no feed at 0,0

  @BF-RELEASE-1 @BF-SCORE-1
  Scenario: Released at the house, an animal is saved and scores; never released on water
    Given a Black Fog game with:
      | thing    | where |
      | k1       | 1,0   |
      | water    | 2,0   |
      | rabbit   | 1,0   |
    When k1 tames a1
    And k1 moves to 0,0
    And k1 releases a1
    Then a1 is saved
    And the score counts 1 small animal saved
    Given a Black Fog game with:
      | thing    | where |
      | k1       | 2,0   |
      | water    | 2,0   |
      | rabbit   | 2,0   |
    When k1 tames a1
    And k1 releases a1
    Then the action is rejected with "release-on-water"

  @BF-ANIMAL-1
  Scenario Outline: Each face moves an animal one tile in its direction; small animals roll twice
    Given a Black Fog game with:
      | thing    | where |
      | <animal> | 0,-3  |
    When the actions end
    And the die shows <first>
    And the die shows <second>
    Then a1 is at <after>

    Examples:
      | animal   | first | second | after |
      | squirrel | 1     | 2      | 1,-5  |
      | squirrel | 3     | 4      | 1,-2  |
      | squirrel | 5     | 6      | -2,-2 |
      | deer     | 2     | -      | 1,-4  |

  @BF-ANIMAL-2
  Scenario: Within 2 tiles of feed an animal walks to it without dice; a small one turns after its first step
    Given a Black Fog game with:
      | thing    | where |
      | feed     | 0,-1  |
      | deer     | 0,-3  |
      | squirrel | 3,-3  |
    When the actions end
    Then a1 is at 0,-2
    And the animal phase waits for a die for a2
    When the die shows 5
    Then a2 is at 1,-1
    And the fog phase has begun

  @BF-ANIMAL-3
  Scenario: With two feeds within reach, the players choose
    Given a Black Fog game with:
      | thing | where       |
      | feed  | 0,-1; 2,-3  |
      | deer  | 1,-3        |
    When the actions end
    Then the animal phase waits for a feed choice for a1
    When the players choose the feed at 0,-1
    Then a1 is at 1,-2

  @BF-ANIMAL-4
  Scenario: An animal on feed stays, unless another feed is near and the players send it
    Given a Black Fog game with:
      | thing | where      |
      | feed  | 0,-2; 0,-4 |
      | deer  | 0,-2       |
      | bear  | 3,-1       |
      | feed  | 3,-1       |
    When the actions end
    Then the animal phase waits for a feed choice for a1
    When the players choose the feed at 0,-4
    Then a1 is at 0,-3
    And a2 is at 3,-1

  @BF-ANIMAL-5
  Scenario: Off the map or onto water nothing happens; into fog the animal is lost
    Given a Black Fog game with:
      | thing | where |
      | deer  | 0,-5  |
      | bear  | 2,0   |
      | water | 2,-1  |
      | boar  | -2,0  |
      | fog   | -2,-1 |
    When the actions end
    And the die shows 1
    And the die shows 1
    And the die shows 1
    Then a1 is at 0,-5
    And a2 is at 2,0
    And a3 is lost

  @BF-FOG-1 @BF-FOG-4
  Scenario: Round 1: fog appears on 3 outer-ring tiles that are not apple trees, and takes who is there
    Given a Black Fog game with:
      | thing | where |
      | k1    | 0,-5  |
    When the actions end
    And fog appears on 0,-5; 1,-5; 5,0
    Then k1 is lost
    And 0,-5 is fog
    And it is the action phase of round 2

  @BF-FOG-1
  Scenario: Fog cannot appear on an apple tree or outside the round's ring
    Given a Black Fog game with:
      | thing | where |
      | round | 3     |
      | apple | 0,-4  |
    When the actions end
    And fog appears on 0,-4; 1,-4; 2,-4
    Then the action is rejected with "bad-fog"
    When fog appears on 0,-5; 1,-5; 2,-5
    Then the action is rejected with "bad-fog"
    When fog appears on 1,-4; 2,-4; 3,-4
    Then 1,-4 is fog

  @BF-FOG-2 @BF-FOG-3
  Scenario: Even rounds: fog spreads a tile; an apple tree withers, and is taken at the next spread
    Given a Black Fog game with:
      | thing | where |
      | round | 2     |
      | fog   | 0,-5  |
      | apple | 0,-4  |
    When the actions end
    Then 1,-5 is fog
    And -1,-4 is fog
    And 0,-4 is a withered apple tree
    When the actions end
    And fog appears on 4,-4; 4,-3; 4,-2
    And the actions end
    Then 0,-4 is fog

  @BF-R19
  Scenario: The fog spreads onto every tile around it, along its ring and outward, not only toward the house
    # From 0,-5 in the outer ring: along the ring to 1,-5 and -1,-4, inward to 0,-4. From 2,-1 in ring 3:
    # outward to 3,-2 and 3,-1, along the ring to 2,-2 and 2,0, inward to 1,-1 and 1,0.
    Given a Black Fog game with:
      | thing | where      |
      | round | 2          |
      | fog   | 0,-5; 2,-1 |
    When the actions end
    Then 1,-5 is fog
    And -1,-4 is fog
    And 0,-4 is fog
    And 3,-2 is fog
    And 3,-1 is fog
    And 2,-2 is fog
    And 2,0 is fog
    And 1,-1 is fog
    And 1,0 is fog
