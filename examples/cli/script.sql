-- Statements separated by ';', run in order on one connection (README, "Two commands").
INSERT INTO memory VALUES ('m3', 0.7);
UPDATE memory SET importance = 0.65 WHERE id = 'm1';
SELECT id, importance FROM memory WHERE importance > 0.5 ORDER BY id
