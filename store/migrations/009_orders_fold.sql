-- 009_orders_fold: the judge folds a robot's sheet versions for a turn incrementally,
-- reading only the versions stored since it last looked (id > the last it folded). With
-- orders_turn alone that read walked every earlier version of the robot, so each new
-- sheet cost more than the one before (issue 14, intake speed).
CREATE INDEX orders_fold ON orders (game_id, turn, robot, valid, id);
