Feature: Ludo (variant)
  Four seats, a 52-square loop, 6 to enter and throw again, three sixes void the third, exact finish,
  whole-stack capture, eight safe squares, no blockades, no capture bonus, seeded dice, three CPU levels.
  Source: 003_2762a0a6ed6e2df0.txt; rules: specs/ludo.md. Pieces are written in steps from their own
  start square: -1 yard, 0-50 the loop, 51-56 the home column, 57 home. Loop square = start + steps
  (human 0, cpu1 13, cpu2 26, cpu3 39), mod 52. Safe squares: 0, 8, 13, 21, 26, 34, 39, 47.

  @LD-SEAT-1 @LD-SEAT-2 @LD-BOARD-3
  Scenario: Four seats, every piece in its yard, the human seat throws first
    Given a new Ludo game with seed 1
    Then the seats are human, cpu1, cpu2, cpu3
    And every piece of every seat is in its yard
    And it is human's turn to throw

  @LD-SEAT-2 @LD-MOVE-3
  Scenario: Turns go human, CPU 1, CPU 2, CPU 3 and round again
    Given a new Ludo game with seed 1
    When human throws a 3
    Then it is cpu1's turn to throw
    When cpu1 throws a 2
    Then it is cpu2's turn to throw
    When cpu2 throws a 4
    Then it is cpu3's turn to throw
    When cpu3 throws a 1
    Then it is human's turn to throw

  @LD-ROLL-2 @LD-BOARD-1
  Scenario: A 6 brings a piece onto the start square and gives another throw
    Given a new Ludo game with seed 1
    When human throws a 6
    Then human may move exactly pieces 0, 1, 2, 3
    When human moves piece 2
    Then human's pieces are at -1, -1, 0, -1
    And it is human's turn to throw

  @LD-BOARD-1
  Scenario: The loop has 52 squares: square 51 is followed by square 0
    # cpu1's step 38 is square 51; three steps on is its step 41, square 2, where a human piece stands.
    Given a Ludo game with seed 1 where it is cpu1's turn:
      | seat  | pieces          |
      | human | 2, -1, -1, -1   |
      | cpu1  | 38, -1, -1, -1  |
    When cpu1 throws a 3
    And cpu1 moves piece 0
    Then cpu1's pieces are at 41, -1, -1, -1
    And human's pieces are at -1, -1, -1, -1

  @LD-ROLL-2 @LD-MOVE-1
  Scenario: A 6 may move a piece already out instead of entering one
    Given a Ludo game with seed 1 where it is human's turn:
      | seat  | pieces          |
      | human | 10, -1, -1, -1  |
    When human throws a 6
    Then human may move exactly pieces 0, 1, 2, 3
    When human moves piece 0
    Then human's pieces are at 16, -1, -1, -1
    And it is human's turn to throw

  @LD-MOVE-3
  Scenario: A face other than 6 cannot bring a piece out, so the throw passes
    Given a new Ludo game with seed 1
    When human throws a 5
    Then it is cpu1's turn to throw
    And human's pieces are at -1, -1, -1, -1

  @LD-MOVE-3 @LD-ROLL-2
  Scenario: A 6 that can move nothing still gives another throw
    Given a Ludo game with seed 1 where it is human's turn:
      | seat  | pieces          |
      | human | 57, 57, 57, 54  |
    When human throws a 6
    Then it is human's turn to throw
    And human's pieces are at 57, 57, 57, 54

  @LD-ROLL-3
  Scenario: The third six in a row is void; the moves of the first two stand
    Given a Ludo game with seed 1 where it is human's turn:
      | seat  | pieces          |
      | human | 10, -1, -1, -1  |
    When human throws a 6
    And human moves piece 0
    And human throws a 6
    And human moves piece 0
    Then human's pieces are at 22, -1, -1, -1
    When human throws a 6
    Then it is cpu1's turn to throw
    And human's pieces are at 22, -1, -1, -1
    And 3 throws have been made

  @LD-MOVE-2 @LD-BOARD-2
  Scenario: Overshooting pieces cannot move while another piece can
    Given a Ludo game with seed 1 where it is human's turn:
      | seat  | pieces          |
      | human | 55, 20, -1, -1  |
    When human throws a 3
    Then human may move exactly pieces 1
    When human moves piece 0
    Then the action is rejected with "piece-cannot-move"
    And the state is unchanged
    When human moves piece 1
    Then human's pieces are at 55, 23, -1, -1

  @LD-MOVE-2 @LD-BOARD-2
  Scenario: Home takes the exact number: 57 steps from the start square
    Given a Ludo game with seed 1 where it is human's turn:
      | seat  | pieces          |
      | human | 51, 20, -1, -1  |
    When human throws a 6
    And human moves piece 0
    Then human's pieces are at 57, 20, -1, -1

  @LD-MOVE-4
  Scenario: Only the pieces the face can move may be tapped, each piece of a stack on its own
    Given a Ludo game with seed 1 where it is human's turn:
      | seat  | pieces          |
      | human | 12, 12, -1, 57  |
    When human throws a 4
    Then human may move exactly pieces 0, 1
    When human moves piece 2
    Then the action is rejected with "piece-cannot-move"
    When human moves piece 3
    Then the action is rejected with "piece-cannot-move"
    When human moves piece 1
    Then human's pieces are at 12, 16, -1, 57

  @LD-CAP-1 @LD-CAP-2
  Scenario: Landing on a stack captures it whole, and gives no extra throw
    Given a Ludo game with seed 1 where it is human's turn:
      | seat  | pieces          |
      | human | 6, -1, -1, -1   |
      | cpu1  | 49, 49, 20, -1  |
    When human throws a 4
    And human moves piece 0
    Then human's pieces are at 10, -1, -1, -1
    And cpu1's pieces are at -1, -1, 20, -1
    And it is cpu1's turn to throw

  @LD-SAFE-1
  Scenario Outline: No capture on a safe square; colours share it
    Given a Ludo game with seed 1 where it is human's turn:
      | seat  | pieces            |
      | human | <human>, -1, -1, -1 |
      | cpu1  | <cpu1>, -1, -1, -1  |
    When human throws a <face>
    And human moves piece 0
    Then human's pieces are at <after>, -1, -1, -1
    And cpu1's pieces are at <cpu1>, -1, -1, -1

    Examples: square 8 is human's star, square 13 cpu1's start, square 47 cpu3's star
      | human | cpu1 | face | after |
      | 5     | 47   | 3    | 8     |
      | 9     | 0    | 4    | 13    |
      | 43    | 34   | 4    | 47    |

  @LD-SAFE-1 @LD-ROLL-2
  Scenario: Entering onto a start square where an enemy stands captures nothing
    Given a Ludo game with seed 1 where it is human's turn:
      | seat  | pieces          |
      | cpu1  | 39, -1, -1, -1  |
    When human throws a 6
    And human moves piece 0
    Then human's pieces are at 0, -1, -1, -1
    And cpu1's pieces are at 39, -1, -1, -1

  @LD-STACK-1
  Scenario: A stack blocks nobody: an enemy passes it
    Given a Ludo game with seed 1 where it is cpu3's turn:
      | seat  | pieces          |
      | human | 10, 10, -1, -1  |
      | cpu3  | 20, -1, -1, -1  |
    When cpu3 throws a 5
    And cpu3 moves piece 0
    Then cpu3's pieces are at 25, -1, -1, -1
    And human's pieces are at 10, 10, -1, -1

  @LD-STACK-1 @LD-CAP-1
  Scenario: A stack protects nothing: an enemy landing on it sends it all back to the yard
    Given a Ludo game with seed 1 where it is cpu3's turn:
      | seat  | pieces          |
      | human | 10, 10, 30, -1  |
      | cpu3  | 20, -1, -1, -1  |
    When cpu3 throws a 3
    And cpu3 moves piece 0
    Then human's pieces are at -1, -1, 30, -1
    And cpu3's pieces are at 23, -1, -1, -1

  @LD-END-1
  Scenario: The game ends the moment a seat has all four pieces home
    Given a Ludo game with seed 1 where it is human's turn:
      | seat  | pieces          |
      | human | 57, 57, 57, 55  |
      | cpu1  | 57, 57, 57, -1  |
    When human throws a 2
    And human moves piece 3
    Then the game is over and human has won
    When human throws a 4
    Then the action is rejected with "game-over"

  @LD-END-2
  Scenario: A game nobody has won after 10,000 throws ends with no result
    Given a Ludo game with seed 1 after 9999 throws where it is human's turn:
      | seat  | pieces          |
      | human | 20, -1, -1, -1  |
    When human throws a 6
    And human moves piece 0
    Then the game is over with no result
    And 10000 throws have been made

  @LD-END-2 @LD-STAT-1
  Scenario: The build's statistics count finished games as wins or losses, capped and abandoned ones as played
    Given the build's Ludo record so far
    And a Ludo game with seed 1 where it is human's turn:
      | seat  | pieces          |
      | human | 57, 57, 57, 55  |
    When human throws a 2
    And human moves piece 3
    Given a Ludo game with seed 1 where it is cpu2's turn:
      | seat  | pieces          |
      | cpu2  | 57, 57, 57, 56  |
    When cpu2 throws a 1
    And cpu2 moves piece 3
    Given a Ludo game with seed 1 after 9999 throws where it is human's turn:
      | seat  | pieces          |
      | human | 20, -1, -1, -1  |
    When human throws a 2
    And human moves piece 0
    Given a new Ludo game with seed 2
    When human throws a 6
    Given a new Ludo game with seed 3
    Then the build's Ludo record has grown by 4 played, 1 won, 1 lost

  @LD-DICE-1 @LD-ROLL-1 @LD-CPU-5
  Scenario Outline: The same seed gives the same faces, whatever the CPUs choose
    Given a new Ludo game with seed 1
    When 12 throws come from the seed, each face played by the <level> CPU
    Then the faces were 6, 2, 1, 6, 4, 3, 4, 4, 1, 5, 4, 5

    Examples:
      | level  |
      | easy   |
      | normal |
      | hard   |

  @LD-CPU-2 @LD-CPU-3
  Scenario Outline: Normal and hard put a capture first
    Given a Ludo game with seed <seed> where it is human's turn:
      | seat  | pieces          |
      | human | 4, 51, -1, 2    |
      | cpu1  | 49, -1, -1, -1  |
    When human throws a 6
    And the <level> CPU moves for human
    Then human's pieces are at 10, 51, -1, 2
    And cpu1's pieces are at -1, -1, -1, -1

    Examples: piece 0 captures on square 10, piece 1 finishes, piece 2 enters, piece 3 lands on the star
      | level  | seed |
      | normal | 1    |
      | hard   | 1    |
      | normal | 5    |
      | hard   | 5    |

  @LD-CPU-2
  Scenario Outline: Normal's order: finish, enter, safe square, any other advance
    Given a Ludo game with seed 1 where it is human's turn:
      | seat  | pieces     |
      | human | <before>   |
    When human throws a 6
    And the normal CPU moves for human
    Then human's pieces are at <after>

    Examples:
      | before          | after           | choice                          |
      | 4, 51, -1, 2    | 4, 57, -1, 2    | finish over enter, safe, other  |
      | 4, 30, -1, 2    | 4, 30, 0, 2     | enter over safe and other       |
      | 4, 30, 57, 2    | 4, 30, 57, 8    | safe square over other          |

  @LD-CPU-2
  Scenario: Between captures, more pieces sent back to the yard beats fewer
    Given a Ludo game with seed 1 where it is human's turn:
      | seat  | pieces           |
      | human | 7, 17, -1, -1    |
      | cpu1  | 49, 49, -1, -1   |
      | cpu2  | 46, -1, -1, -1   |
    When human throws a 3
    And the normal CPU moves for human
    Then human's pieces are at 10, 17, -1, -1
    And cpu1's pieces are at -1, -1, -1, -1
    And cpu2's pieces are at 46, -1, -1, -1

  @LD-CPU-3 @LD-CPU-4
  Scenario Outline: Hard weighs the risk of recapture; normal sees two equal advances
    # Piece 0 lands on square 17: cpu1 (square 15) hits it with a 2: risk 1/6 = 36/216.
    # Piece 1 lands on square 33: cpu2 (square 31) with a 2, cpu3 (square 29) with a 4:
    # risk 1 - (5/6)(5/6) = 11/36 = 66/216, a little less than 2/6 (the seed's erratum).
    Given a Ludo game with seed <seed> where it is human's turn:
      | seat  | pieces           |
      | human | 14, 30, -1, -1   |
      | cpu1  | 2, -1, -1, -1    |
      | cpu2  | 5, -1, -1, -1    |
      | cpu3  | 42, -1, -1, -1   |
    When human throws a 3
    And the <level> CPU moves for human
    Then human's pieces are at <after>
    And <draws> numbers have been drawn from the decision stream

    Examples:
      | level  | seed | after          | draws |
      | hard   | 1    | 17, 30, -1, -1 | 0     |
      | hard   | 3    | 17, 30, -1, -1 | 0     |
      | normal | 1    | 14, 33, -1, -1 | 1     |
      | normal | 3    | 17, 30, -1, -1 | 1     |

  @LD-CPU-3
  Scenario: Hard counts the home column as out of reach
    # Piece 0 would land on square 17 with cpu1 two squares behind (risk 1/6); piece 1 enters its
    # home column (risk 0). Both are plain advances, so only the risk separates them.
    Given a Ludo game with seed 1 where it is human's turn:
      | seat  | pieces           |
      | human | 14, 50, -1, -1   |
      | cpu1  | 2, -1, -1, -1    |
    When human throws a 3
    And the hard CPU moves for human
    Then human's pieces are at 14, 53, -1, -1

  @LD-CPU-3 @LD-SAFE-1
  Scenario Outline: Hard counts a safe square as zero risk, even with an enemy just behind
    # Piece 0 lands on square 8 (a star) with cpu3 one square behind; piece 1 on square 13 (cpu1's
    # start) with nobody near. Both are safe landings with risk 0, so hard sees a tie and draws.
    Given a Ludo game with seed <seed> where it is human's turn:
      | seat  | pieces           |
      | human | 5, 10, -1, -1    |
      | cpu3  | 20, -1, -1, -1   |
    When human throws a 3
    And the hard CPU moves for human
    Then human's pieces are at <after>
    And 1 numbers have been drawn from the decision stream

    Examples:
      | seed | after          |
      | 0    | 8, 10, -1, -1  |
      | 1    | 5, 13, -1, -1  |

  @LD-CPU-1
  Scenario Outline: Easy picks uniformly among the legal moves with the seeded decision stream
    Given a Ludo game with seed <seed> where it is human's turn:
      | seat  | pieces          |
      | human | 4, 51, -1, 2    |
      | cpu1  | 49, -1, -1, -1  |
    When human throws a 6
    And the easy CPU moves for human
    Then human's pieces are at <after>
    And 1 numbers have been drawn from the decision stream

    Examples:
      | seed | after          |
      | 0    | 4, 51, 0, 2    |
      | 1    | 4, 51, -1, 8   |
      | 3    | 10, 51, -1, 2  |
      | 5    | 4, 57, -1, 2   |

  @LD-CPU-4
  Scenario: The same seed breaks the same tie the same way, whatever moved before
    Given a Ludo game with seed 1 where it is human's turn:
      | seat  | pieces           |
      | human | 14, 30, -1, -1   |
      | cpu1  | 2, -1, -1, -1    |
      | cpu2  | 5, -1, -1, -1    |
      | cpu3  | 42, -1, -1, -1   |
    When human throws a 3
    And the normal CPU moves for human
    Then human's pieces are at 14, 33, -1, -1
    When the game is restarted
    And human throws a 3
    And the normal CPU moves for human
    Then human's pieces are at 14, 33, -1, -1
