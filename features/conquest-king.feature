Feature: Conquest King (征服王)
  Two kingdoms; deployment within 5 columns of the own castle; one hidden ambush per side; facing,
  combined attacks, side and rear bonuses, a die per side with ties to the attacker; two victory
  conditions; the lobby's clock. Source: 004_46cf37fb369b2cbe.txt; rules: specs/conquest-king.md.
  Squares are x,y (x 0-15 west to east, y 0-7 north to south). Sparkia's castle is 0,0 and Gaias' 15,7
  (a chosen map); scenarios on documented facts use light and heavy infantry on plain and river squares.

  @CK-SIDE-1 @CK-ARMY-1 @CK-DEPLOY-1
  Scenario: Each kingdom starts with its King in its castle and 500G
    Given a new Conquest King game
    Then the sides are sparkia and gaias
    And sparkia-king stands at 0,0
    And gaias-king stands at 15,7
    And sparkia has 500G to spend
    And gaias has 500G to spend

  @CK-DEPLOY-1 @CK-ARMY-1
  Scenario Outline: Units are placed within 5 columns of the own castle and within budget
    Given a new Conquest King game
    When <side> places a light-infantry at <square>
    Then the action is <outcome>

    Examples:
      | side    | square | outcome                               |
      | sparkia | 5,3    | accepted                              |
      | sparkia | 6,3    | rejected with "illegal-square"        |
      | gaias   | 10,3   | accepted                              |
      | gaias   | 9,3    | rejected with "illegal-square"        |
      | sparkia | 0,0    | rejected with "illegal-square"        |

  @CK-ARMY-1
  Scenario: The budget is 500G: 25 light infantry at 20G, not 26
    Given a new Conquest King game
    When sparkia places 25 light-infantry
    Then sparkia has 0G to spend
    When sparkia places a light-infantry at 5,7
    Then the action is rejected with "over-budget"

  @CK-DEPLOY-2
  Scenario: A placement can be taken back and its price is refunded
    Given a new Conquest King game
    When sparkia places a light-infantry at 3,3
    And sparkia takes back the unit at 3,3
    Then sparkia has 500G to spend
    And the referee sees no unit at 3,3

  @CK-DEPLOY-3
  Scenario: Deployment completes in two steps; the game starts when both sides have completed it
    Given a new Conquest King game
    When sparkia places a light-infantry at 3,3
    And sparkia declares deployment complete
    Then the game is still being deployed
    When sparkia declares deployment complete
    And gaias declares deployment complete
    Then the game is still being deployed
    When gaias declares deployment complete
    Then it is sparkia's phase of turn 1

  @CK-AMB-1
  Scenario: Only one unit per side can be the ambush
    Given a new Conquest King game
    When sparkia places a light-infantry at 3,3 as the ambush
    And sparkia places a heavy-infantry at 3,5 as the ambush
    Then the action is rejected with "one-ambush"

  @CK-AMB-2 @CK-HIDE-1
  Scenario: At the start the ambush leaves the map: its owner sees it, the opponent does not
    Given a new Conquest King game
    When sparkia places a light-infantry at 4,4 as the ambush
    And sparkia places a light-infantry at 4,2
    Then gaias sees no unit at 4,2
    When both sides complete their deployment
    Then sparkia sees its hidden ambush at 4,4
    And gaias sees no unit at 4,4
    And gaias sees the sparkia unit at 4,2
    And nothing in gaias's view marks the square 4,4

  @CK-AMB-3
  Scenario: An enemy unit that stops on the ambush is destroyed unconditionally
    Given a Conquest King battle on plain ground where it is gaias's phase:
      | side    | kind           | at  | facing | ambush |
      | sparkia | light-infantry | 4,4 | e      | yes    |
      | gaias   | light-infantry | 6,4 | w      |        |
    When the unit at 6,4 moves to 4,4 facing w
    Then gaias-1 is destroyed
    And sparkia-1 has appeared at 4,4

  @CK-AMB-4 @CK-ATK-4
  Scenario: An enemy unit that ends its move beside the ambush makes it appear and attack
    Given a Conquest King battle on plain ground where it is gaias's phase:
      | side    | kind           | at  | facing | ambush |
      | sparkia | light-infantry | 4,4 | e      | yes    |
      | gaias   | light-infantry | 7,4 | w      |        |
    When the unit at 7,4 moves to 5,4 facing w
    Then sparkia-1 has appeared at 4,4
    And a fight waits: sparkia-1 attacks gaias-1, 3 against 3
    When the dice show 2 for the attacker and 2 for the defender
    Then gaias-1 is destroyed

  @CK-AMB-4
  Scenario: Passing beside the ambush does not trigger it; only where the move ends counts
    Given a Conquest King battle on plain ground where it is gaias's phase:
      | side    | kind           | at  | facing | ambush |
      | sparkia | light-infantry | 4,4 | e      | yes    |
      | gaias   | light-infantry | 6,3 | w      |        |
    When the unit at 6,3 moves to 4,2 facing w
    Then no fight waits
    And gaias sees no unit at 4,4

  @CK-AMB-4
  Scenario: Turning in place beside the ambush does not make it appear
    Given a Conquest King battle on plain ground where it is gaias's phase:
      | side    | kind           | at  | facing | ambush |
      | sparkia | light-infantry | 4,4 | e      | yes    |
      | gaias   | light-infantry | 5,4 | n      |        |
    When the unit at 5,4 moves to 5,4 facing w
    Then no fight waits
    And gaias sees no unit at 4,4

  @CK-HIDE-1
  Scenario: Probing with "reveal" finds nothing: the enemy's ambush answers like an empty square
    Given a Conquest King battle on plain ground where it is sparkia's phase:
      | side    | kind           | at   | facing | ambush |
      | gaias   | light-infantry | 12,3 | w      | yes    |
    When sparkia reveals its ambush at 12,3
    Then the action is rejected with "not-hidden"
    When sparkia reveals its ambush at 12,4
    Then the action is rejected with "not-hidden"

  @CK-AMB-5
  Scenario: A friend standing on the ambush's square keeps it hidden
    Given a Conquest King battle on plain ground where it is gaias's phase:
      | side    | kind           | at  | facing | ambush |
      | sparkia | light-infantry | 4,4 | e      | yes    |
      | sparkia | heavy-infantry | 4,4 | n      |        |
      | gaias   | light-infantry | 7,4 | w      |        |
    When the unit at 7,4 moves to 5,4 facing n
    Then no fight waits
    And gaias sees the sparkia unit at 4,4
    And sparkia sees its hidden ambush at 4,4

  @CK-AMB-5
  Scenario: Own units may stop on the ambush's square
    Given a Conquest King battle on plain ground where it is sparkia's phase:
      | side    | kind           | at  | facing | ambush |
      | sparkia | light-infantry | 4,4 | e      | yes    |
      | sparkia | heavy-infantry | 4,5 | n      |        |
    When the unit at 4,5 moves to 4,4 facing e
    Then sparkia-1 stands at 4,4 facing e
    And sparkia sees its hidden ambush at 4,4

  @CK-AMB-6 @CK-AMB-7
  Scenario: A hidden ambush cannot move; revealed by its owner, it appears unacted and may move
    Given a Conquest King battle on plain ground where it is sparkia's phase:
      | side    | kind           | at  | facing | ambush |
      | sparkia | light-infantry | 4,4 | e      | yes    |
    When the unit at 4,4 moves to 5,4 facing e
    Then the action is rejected with "hidden-ambush"
    When sparkia reveals its ambush at 4,4
    Then sparkia-1 has appeared at 4,4
    And gaias sees the sparkia unit at 4,4
    When the unit at 4,4 moves to 5,4 facing e
    Then sparkia-1 stands at 5,4 facing e

  @CK-AMB-8
  Scenario: Once it has appeared, the ambush can never hide again
    Given a Conquest King battle on plain ground where it is sparkia's phase:
      | side    | kind           | at  | facing | ambush |
      | sparkia | light-infantry | 4,4 | e      | yes    |
    When sparkia reveals its ambush at 4,4
    And sparkia reveals its ambush at 4,4
    Then the action is rejected with "not-hidden"

  @CK-TURN-1 @CK-MOVE-1
  Scenario: Sparkia's phase, then Gaias', then the next turn; each unit moves once a turn
    Given a Conquest King battle on plain ground where it is sparkia's phase:
      | side    | kind           | at   | facing |
      | sparkia | light-infantry | 3,3  | e      |
      | gaias   | light-infantry | 12,3 | w      |
    When the unit at 3,3 moves to 5,3 facing e
    And the unit at 5,3 moves to 6,3 facing e
    Then the action is rejected with "already-moved"
    When sparkia ends its phase
    Then it is gaias's phase of turn 1
    When gaias ends its phase
    Then it is sparkia's phase of turn 2
    When the unit at 5,3 moves to 6,3 facing s
    Then sparkia-1 stands at 6,3 facing s

  @CK-MOVE-1
  Scenario Outline: Light infantry moves up to 3 squares of plain, turning for free
    Given a Conquest King battle on plain ground where it is sparkia's phase:
      | side    | kind           | at  | facing |
      | sparkia | light-infantry | 3,3 | e      |
    When the unit at 3,3 moves to <to> facing <facing>
    Then the action is <outcome>

    Examples:
      | to  | facing | outcome                        |
      | 6,3 | n      | accepted                       |
      | 4,5 | w      | accepted                       |
      | 3,3 | s      | accepted                       |
      | 7,3 | e      | rejected with "unreachable"    |
      | 5,5 | e      | rejected with "unreachable"    |

  @CK-ATK-1 @CK-ATK-6 @CK-ATK-4
  Scenario: Figure 1: light infantry against light infantry, 3+0 vs 3+0, dice 4 and 4: the attacker wins the tie
    Given a Conquest King battle on plain ground where it is sparkia's phase:
      | side    | kind           | at  | facing |
      | sparkia | light-infantry | 4,3 | e      |
      | sparkia | light-infantry | 6,2 | e      |
      | gaias   | light-infantry | 6,3 | w      |
      | gaias   | light-infantry | 7,3 | w      |
    When the unit at 4,3 moves to 5,3 facing e and attacks
    Then a fight waits: sparkia-1 attacks gaias-1, 3 against 3
    When the dice show 4 for the attacker and 4 for the defender
    Then gaias-1 is destroyed
    And sparkia-1 stands at 5,3 facing e
    And sparkia-2 stands at 6,2 facing e

  @CK-ATK-2 @CK-ATK-3 @CK-ATK-5 @CK-ATK-6 @CK-TERRAIN-1 @CK-R15
  Scenario: Figure 2: front and rear light infantry against heavy infantry in a river, (6+2)+1 vs (5-1)+6
    Given a Conquest King battle on plain ground with river at 6,3 where it is sparkia's phase:
      | side    | kind           | at  | facing |
      | sparkia | light-infantry | 4,3 | e      |
      | sparkia | light-infantry | 7,3 | w      |
      | gaias   | heavy-infantry | 6,3 | w      |
      | gaias   | light-infantry | 6,4 | n      |
    When the unit at 4,3 moves to 5,3 facing e and attacks
    Then a fight waits: sparkia-1 attacks gaias-1, 8 against 4
    And the attack is made by sparkia-1 and sparkia-2
    When the dice show 1 for the attacker and 6 for the defender
    Then sparkia-1 is destroyed
    And sparkia-2 stands at 7,3 facing w
    And gaias-1 stands at 6,3 facing w

  @CK-ATK-3
  Scenario Outline: An attack from the side adds 1, from the rear 2
    Given a Conquest King battle on plain ground where it is sparkia's phase:
      | side    | kind           | at  | facing   |
      | sparkia | light-infantry | <from> | e     |
      | gaias   | light-infantry | 6,3 | <facing> |
    When the unit at <from> moves to <to> facing <towards> and attacks
    Then a fight waits: sparkia-1 attacks gaias-1, <attack> against 3

    Examples:
      | facing | from | to  | towards | attack |
      | w      | 4,3  | 5,3 | e       | 3      |
      | n      | 4,3  | 5,3 | e       | 4      |
      | e      | 4,3  | 5,3 | e       | 5      |

  @CK-ATK-2
  Scenario: The defender gets no support from its neighbours
    Given a Conquest King battle on plain ground where it is sparkia's phase:
      | side    | kind           | at  | facing |
      | sparkia | light-infantry | 4,3 | e      |
      | gaias   | light-infantry | 6,3 | w      |
      | gaias   | heavy-infantry | 6,2 | s      |
      | gaias   | heavy-infantry | 7,3 | w      |
    When the unit at 4,3 moves to 5,3 facing e and attacks
    Then a fight waits: sparkia-1 attacks gaias-1, 3 against 3

  @CK-ATK-2
  Scenario: A unit that has already moved this turn still supports an attack
    Given a Conquest King battle on plain ground where it is sparkia's phase:
      | side    | kind           | at  | facing |
      | sparkia | archers        | 4,2 | e      |
      | sparkia | light-infantry | 4,3 | e      |
      | gaias   | heavy-infantry | 6,3 | w      |
    When the unit at 4,2 moves to 6,2 facing s
    And the unit at 4,3 moves to 5,3 facing e and attacks
    Then a fight waits: sparkia-2 attacks gaias-1, 6 against 5
    And the attack is made by sparkia-2 and sparkia-1

  @CK-ATK-1
  Scenario: An attack needs a visible enemy in the faced square
    Given a Conquest King battle on plain ground where it is sparkia's phase:
      | side    | kind           | at  | facing |
      | sparkia | light-infantry | 4,3 | e      |
      | gaias   | light-infantry | 6,3 | w      |
    When the unit at 4,3 moves to 5,3 facing n and attacks
    Then the action is rejected with "no-target"

  @CK-WIN-1
  Scenario: Destroying the enemy King in combat wins
    Given a Conquest King battle on plain ground where it is sparkia's phase:
      | side    | kind           | at  | facing |
      | sparkia | heavy-infantry | 7,4 | e      |
      | gaias   | king           | 9,4 | w      |
    When the unit at 7,4 moves to 8,4 facing e and attacks
    And the dice show 6 for the attacker and 1 for the defender
    Then the game is over: sparkia wins by king

  @CK-AMB-3 @CK-WIN-1
  Scenario: A King that stops on the enemy ambush's square is destroyed, and its side loses
    Given a Conquest King battle on plain ground where it is gaias's phase:
      | side    | kind           | at   | facing | ambush |
      | sparkia | light-infantry | 12,5 | e      | yes    |
      | gaias   | king           | 13,6 | w      |        |
    When the unit at 13,6 moves to 12,5 facing w
    Then gaias-king is destroyed
    And sparkia-1 has appeared at 12,5
    And the game is over: sparkia wins by king

  @CK-WIN-2
  Scenario: Holding both squares beside the enemy castle wins, with the enemy King still inside
    Given a Conquest King battle on plain ground where it is sparkia's phase:
      | side    | kind           | at   | facing |
      | sparkia | light-infantry | 15,6 | e      |
      | sparkia | light-infantry | 13,7 | e      |
    When the unit at 13,7 moves to 14,7 facing e
    Then the game is over: sparkia wins by gates
    And gaias-king stands at 15,7

  @CK-DICE-1 @kit
  Scenario Outline: The attacker's chance at each base difference, by enumerating both dice
    When the kit enumerates the 36 throws at a base difference of <difference>
    Then the attacker wins <wins> of 36, <percent>%

    Examples:
      | difference | wins | percent |
      | 5          | 36   | 100     |
      | 4          | 35   | 97      |
      | 3          | 33   | 92      |
      | 2          | 30   | 83      |
      | 1          | 26   | 72      |
      | 0          | 21   | 58      |
      | -1         | 15   | 42      |
      | -2         | 10   | 28      |
      | -3         | 6    | 17      |
      | -4         | 3    | 8       |
      | -5         | 1    | 3       |
      | -6         | 0    | 0       |

  @CK-LOBBY-1
  Scenario: Deployment not completed 24 hours after registration deletes the game
    Given a new Conquest King game
    When 1439 minutes pass
    Then the game is still being deployed
    When 1 minutes pass
    Then the game is over: deleted

  @CK-LOBBY-2
  Scenario: A finished game is reset after an hour and goes to the archive
    Given a Conquest King battle on plain ground where it is sparkia's phase:
      | side    | kind           | at   | facing |
      | sparkia | light-infantry | 15,6 | e      |
      | sparkia | light-infantry | 13,7 | e      |
    When the unit at 13,7 moves to 14,7 facing e
    And 59 minutes pass
    Then the game is not archived yet
    When 1 minutes pass
    Then the game is archived

  @CK-LOBBY-3 @CK-LOBBY-6
  Scenario: A real-time field resets when one registration stays alone for 2 hours
    Given a new Conquest King game on a real-time field with nobody registered
    When sparkia registers
    And 119 minutes pass
    Then the game is still being deployed
    When 1 minutes pass
    Then the game is over: reset

  @CK-LOBBY-6
  Scenario: The 2 hours of a lone registration count from that registration, not from the field's opening
    Given a new Conquest King game on a real-time field with nobody registered
    When 60 minutes pass
    And sparkia registers
    And 119 minutes pass
    Then the game is still being deployed
    When 1 minutes pass
    Then the game is over: reset

  @CK-LOBBY-3
  Scenario: A real-time field is reset 24 hours after the first registration, whether in deployment or in play
    Given a new Conquest King game on a real-time field with nobody registered
    When sparkia registers
    And 30 minutes pass
    And gaias registers
    And both sides complete their deployment
    And 1409 minutes pass
    Then the game goes on
    When 1 minutes pass
    Then the game is over: reset

  @CK-LOBBY-4
  Scenario: On a real-time field a phase lasts at most 12 hours
    Given a new Conquest King game on a real-time field with nobody registered
    When sparkia registers
    And gaias registers
    And both sides complete their deployment
    And 719 minutes pass
    Then it is sparkia's phase of turn 1
    When 1 minutes pass
    Then it is gaias's phase of turn 1

  @CK-LOBBY-5
  Scenario: On a real-time field a finished game is reset after 30 minutes
    Given a Conquest King battle on plain ground on a real-time field where it is sparkia's phase:
      | side    | kind           | at   | facing |
      | sparkia | light-infantry | 15,6 | e      |
      | sparkia | light-infantry | 13,7 | e      |
    When the unit at 13,7 moves to 14,7 facing e
    And 29 minutes pass
    Then the game is not archived yet
    When 1 minutes pass
    Then the game is archived

  @CK-DICE-1 @CK-ATK-3 @CK-ATK-4
  Scenario Outline: A build's fights follow the table, for every base difference documented units can make
    Given a fight of <attack> against <defence> between light and heavy infantry
    When each of the 36 throws of the two dice is tried
    Then the attacker wins <wins> of the 36 throws

    Examples: light infantry 3, heavy infantry 5, river -1, side +1, rear +2 (all from the seed)
      | attack | defence | wins | how                                          |
      | 8      | 3       | 36   | front and rear against light infantry        |
      | 7      | 3       | 35   | front and side against light infantry        |
      | 7      | 4       | 33   | front and side against heavy infantry in a river |
      | 5      | 3       | 30   | from the rear                                |
      | 4      | 3       | 26   | from the side                                |
      | 3      | 3       | 21   | from the front                               |
      | 2      | 3       | 15   | from the front, standing in a river          |
      | 3      | 5       | 10   | against heavy infantry                       |
      | 2      | 5       | 6    | against heavy infantry, standing in a river  |
