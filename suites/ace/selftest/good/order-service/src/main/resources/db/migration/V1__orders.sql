CREATE TABLE orders (
    order_id UUID PRIMARY KEY,
    account_id UUID NOT NULL,
    symbol VARCHAR(16) NOT NULL,
    side VARCHAR(4) NOT NULL CHECK (side IN ('BUY', 'SELL')),
    quantity NUMERIC(19, 4) NOT NULL CHECK (quantity > 0),
    price NUMERIC(19, 4) NOT NULL,
    executed_at TIMESTAMP WITH TIME ZONE NOT NULL
);
