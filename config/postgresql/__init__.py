"""Django's PostgreSQL backend with the pool's connection check of config/connections.py."""
