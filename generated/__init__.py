"""Generated engines, one module per title and variant. Do not edit: `rulec compile`."""

ENGINES = {
    ('18 Grand Junction', None): 't_18_grand_junction',
    ('18 Grand Junction', 'Two-Player'): 't_18_grand_junction__two_player',
    ('1800', None): 't_1800',
    ('1800', 'Three-Player'): 't_1800__three_player',
    ('1846', None): 't_1846',
    ('1846', 'Two-Player'): 't_1846__two_player',
    ('1846', '18xx.games'): 't_1846__18xx_games',
    ('1846', 'Two-Player, 18xx.games'): 't_1846__two_player_18xx_games',
    ('1880 Romania', None): 't_1880_romania',
    ('1880 Romania', 'Transylvania'): 't_1880_romania__transylvania',
    ('1880 Romania', 'Regatul României'): 't_1880_romania__regatul_romaniei',
    ('1880 Romania', 'Amira'): 't_1880_romania__amira',
    ('18CO', None): 't_18co',
}
