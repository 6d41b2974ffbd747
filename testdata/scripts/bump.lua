-- bump counts a visit of KEYS[1] in a global counter: on a cluster, the
-- counter lives on another node than most users.
redis.call('INCR', KEYS[1])
return redis.call('INCR', 'stats:global')
