1 name
>>1 random
2 version
>>2 1.0.0
7 reset_board
>>7
15 time_setting 900000
>>15
14 ready
>>14
11 flip b8 G
>>11
16 time_left red 900000
>>16
12 genmove black
>>12 d1 d1
11 flip d1 r
>>11
16 time_left black 900000
>>16
11 flip a4 P
>>11
16 time_left red 900000
>>16
12 genmove black
>>12 c1 c1
11 flip c1 C
>>11
16 time_left black 900000
>>16
11 flip b1 N
>>11
16 time_left red 900000
>>16
12 genmove black
>>12 b2 b2
11 flip b2 P
>>11
16 time_left black 900000
>>16
11 flip c2 M
>>11
16 time_left red 900000
>>16
12 genmove black
>>12 a2 a2
11 flip a2 P
>>11
16 time_left black 900000
>>16
11 flip b4 c
>>11
16 time_left red 900000
>>16
12 genmove black
>>12 c7 c7
11 flip c7 N
>>11
16 time_left black 900000
>>16
11 flip a5 p
>>11
16 time_left red 900000
>>16
12 genmove black
>>12 c6 c6
11 flip c6 p
>>11
16 time_left black 900000
>>16
10 move c7 c6
>>10
16 time_left red 900000
>>16
12 genmove black
>>12 b7 b7
11 flip b7 K
>>11
16 time_left black 900000
>>16
10 move a4 a5
>>10
16 time_left red 900000
>>16
12 genmove black
>>12 d6 d6
11 flip d6 p
>>11
16 time_left black 900000
>>16
10 move c6 d6
>>10
16 time_left red 900000
>>16
12 genmove black
>>12 a6 a6
11 flip a6 c
>>11
16 time_left black 900000
>>16
10 move d6 c6
>>10
16 time_left red 900000
>>16
12 genmove black
>>12 a8 a8
11 flip a8 R
>>11
16 time_left black 900000
>>16
11 flip c8 n
>>11
16 time_left red 900000
>>16
12 genmove black
>>12 c8 c7
10 move c8 c7
>>10
16 time_left black 900000
>>16
10 move b7 c7
>>10
16 time_left red 900000
>>16
12 genmove black
>>12 b4 b2
10 move b4 b2
>>10
16 time_left black 900000
>>16
10 move b1 b2
>>10
16 time_left red 900000
>>16
12 genmove black
>>12 a3 a3
11 flip a3 C
>>11
16 time_left black 900000
>>16
10 move a3 a6
>>10
16 time_left red 900000
>>16
12 genmove black
>>12 a1 a1
11 flip a1 r
>>11
16 time_left black 900000
>>16
10 move b8 b7
>>10
16 time_left red 900000
>>16
12 genmove black
>>12 a1 b1
10 move a1 b1
>>10
16 time_left black 900000
>>16
10 move a8 b8
>>10
16 time_left red 900000
>>16
12 genmove black
>>12 c4 c4
11 flip c4 P
>>11
16 time_left black 900000
>>16
11 flip d8 M
>>11
16 time_left red 900000
>>16
12 genmove black
>>12 d3 d3
11 flip d3 n
>>11
16 time_left black 900000
>>16
10 move b8 c8
>>10
16 time_left red 900000
>>16
12 genmove black
>>12 b1 c1
10 move b1 c1
>>10
16 time_left black 900000
>>16
10 move c2 c1
>>10
16 time_left red 900000
>>16
12 genmove black
>>12 d5 d5
11 flip d5 g
>>11
16 time_left black 900000
>>16
10 move c1 d1
>>10
16 time_left red 900000
>>16
12 genmove black
>>12 c3 c3
11 flip c3 m
>>11
16 time_left black 900000
>>16
10 move c4 b4
>>10
16 time_left red 900000
>>16
12 genmove black
>>12 d5 d6
10 move d5 d6
>>10
16 time_left black 900000
>>16
10 move a2 a3
>>10
16 time_left red 899999
>>16
12 genmove black
>>12 c3 c4
10 move c3 c4
>>10
16 time_left black 900000
>>16
10 move b4 a4
>>10
16 time_left red 899999
>>16
12 genmove black
>>12 d6 d5
10 move d6 d5
>>10
16 time_left black 900000
>>16
10 move b2 c2
>>10
16 time_left red 899999
>>16
12 genmove black
>>12 d3 c3
10 move d3 c3
>>10
16 time_left black 900000
>>16
10 move d1 c1
>>10
16 time_left red 899999
>>16
12 genmove black
>>12 c3 d3
10 move c3 d3
>>10
16 time_left black 900000
>>16
10 move c6 d6
>>10
16 time_left red 899999
>>16
12 genmove black
>>12 c4 c3
10 move c4 c3
>>10
16 time_left black 900000
>>16
10 move c7 c6
>>10
16 time_left red 899999
>>16
12 genmove black
>>12 d7 d7
11 flip d7 k
>>11
16 time_left black 900000
>>16
10 move c8 c7
>>10
16 time_left red 899999
>>16
12 genmove black
>>12 c3 c2
10 move c3 c2
>>10
16 time_left black 900000
>>16
10 move c1 c2
>>10
16 time_left red 899999
>>16
12 genmove black
>>12 b3 b3
11 flip b3 P
>>11
16 time_left black 900000
>>16
10 move d8 c8
>>10
16 time_left red 899999
>>16
12 genmove black
>>12 b5 b5
11 flip b5 p
>>11
16 time_left black 900000
>>16
10 move a5 b5
>>10
16 time_left red 899999
>>16
12 genmove black
>>12 d7 d8
10 move d7 d8
>>10
16 time_left black 900000
>>16
10 move c8 b8
>>10
16 time_left red 899999
>>16
12 genmove black
>>12 d8 d7
10 move d8 d7
>>10
16 time_left black 900000
>>16
10 move b3 b4
>>10
16 time_left red 899999
>>16
12 genmove black
>>12 b6 b6
11 flip b6 R
>>11
16 time_left black 900000
>>16
10 move b8 c8
>>10
16 time_left red 899999
>>16
12 genmove black
>>12 d2 d2
11 flip d2 p
>>11
16 time_left black 900000
>>16
10 move c2 d2
>>10
16 time_left red 899999
>>16
12 genmove black
>>12 d7 d6
10 move d7 d6
>>10
16 time_left black 900000
>>16
10 move c6 d6
>>10
16 time_left red 899999
>>16
12 genmove black
>>12 a7 a7
11 flip a7 g
>>11
16 time_left black 900000
>>16
10 move b7 a7
>>10
16 time_left red 899999
>>16
12 genmove black
>>12 d4 d4
11 flip d4 G
>>11
16 time_left black 900000
>>16
10 move d6 d5
>>10
16 time_left red 899999
>>16
12 genmove black
>>12 d3 c3
10 move d3 c3
>>10
16 time_left black 900000
>>16
10 move d2 c2
>>10
16 time_left red 899999
>>16
12 genmove black
>>12 c3 d3
10 move c3 d3
>>10
16 time_left black 900000
>>16
10 move d4 d3
>>10
16 time_left red 899999
>>16
12 genmove black
>>12 c5 c5
11 flip c5 m
>>11
16 time_left black 900000
>>16
10 move d5 c5
>>10
16 time_left red 899999
>>16
5 quit
