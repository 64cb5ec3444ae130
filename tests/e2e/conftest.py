"""End-to-end tests share the integration fixtures (the fresh PostgreSQL database and Redis)."""

from tests.integration.conftest import (
    it_database,
    it_redis,
    make_user,
    pytest_collection_modifyitems,
)

__all__ = ["it_database", "it_redis", "make_user", "pytest_collection_modifyitems"]
